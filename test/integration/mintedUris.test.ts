// Every URI the service mints dereferences, and compound identity is stored with
// documented terms (docs/graph-layout.md), while data written with the old ones still reads.
import { expect } from 'chai';
import { DataFactory } from 'n3';
import { startApp, type TestApp } from '../helpers/app.ts';
import { lines, uploadDataset } from '../helpers/datasets.ts';
import { createModel } from '../../src/models/models.ts';
import { ensureFeature } from '../../src/features/features.ts';
import { turtle } from '../helpers/tasks.ts';
import { OT, SCHEMA, SVC } from '../../src/rdf/vocab.ts';

const { namedNode } = DataFactory;
const TTL = 'text/turtle';
const get = (url: string) => fetch(url, { headers: { Accept: TTL } });

describe('minted URIs dereference', function () {
  this.timeout(60_000);
  let app: TestApp;
  let dataset: string;
  before(async () => {
    app = await startApp();
    dataset = (await uploadDataset(app, 'SMILES,logS\nCCO,1.5\nCCCO,2\n', 'text/csv')).body;
  });
  after(async () => { await app.close(); });

  it('every ot:dataEntry of a dataset answers 200 with its compound and values', async () => {
    const body = await (await get(dataset)).text();
    const entries = turtle(body).store.getObjects(namedNode(dataset), OT.dataEntry, null).map((o) => o.value);
    expect(entries).to.have.length(2);
    const feature = (await lines(dataset + '/features'))[0]!;
    const compounds = await lines(dataset + '/compounds');
    for (const [i, e] of entries.sort().entries()) {
      const res = await get(e);
      expect(res.status, e).to.equal(200);
      expect(res.headers.get('content-type')).to.contain(TTL);
      const t = turtle(await res.text());
      expect(t.has(e, OT.compound, namedNode(compounds[i]!))).to.equal(true);
      const value = t.store.getObjects(namedNode(e), OT.values, null)[0];
      expect(t.store.getObjects(value!, OT.feature, null)[0]?.value).to.equal(feature);
      expect(t.store.getObjects(value!, OT.value, null)[0]?.value).to.equal(['1.5', '2'][i]);
    }
    expect((await get(dataset + '/entry/99')).status).to.equal(404);
    expect((await get(dataset + '/entry/x')).status).to.equal(404);
  });

  it('every ot:parameters node of a model answers 200 with its title and value', async () => {
    const feature = (await lines(dataset + '/features'))[0]!;
    const predicted = await ensureFeature(app.deps, { title: 'logS (p)', type: 'numeric', source: app.url + '/algorithm/p' });
    const model = await createModel(app.deps, {
      title: 'm', creator: 'test', algorithm: app.url + '/algorithm/p', trainingDataset: dataset, independentVariables: [],
      dependentVariables: [feature], predictedVariables: [predicted], parameters: [{ name: 'k', value: 3 }, { name: 'metric', value: 'tanimoto' }], kind: 'none', data: {},
    });
    const params = turtle(await (await get(model)).text()).store.getObjects(namedNode(model), OT.parameters, null).map((o) => o.value).sort();
    expect(params).to.have.length(2);
    for (const [i, p] of params.entries()) {
      const res = await get(p);
      expect(res.status, p).to.equal(200);
      const t = turtle(await res.text());
      expect(t.value(p, DataFactory.namedNode('http://purl.org/dc/elements/1.1/title'))).to.equal(['k', 'metric'][i]);
      expect(t.value(p, OT.paramValue)).to.equal(['3', 'tanimoto'][i]);
    }
    expect((await get(model + '/parameter/9')).status).to.equal(404);
  });

  it('every URI of this service in a dataset, its compounds, a model and a task answers GET with 200', async () => {
    const feature = (await lines(dataset + '/features'))[0]!;
    const model = await createModel(app.deps, {
      title: 'm2', creator: 'test', algorithm: app.url + '/algorithm/knn', trainingDataset: dataset, independentVariables: [feature],
      dependentVariables: [feature], predictedVariables: [feature], parameters: [{ name: 'k', value: 1 }], kind: 'none', data: {},
    });
    const task = (await (await fetch(app.url + '/algorithm/physchem', { method: 'POST', headers: { Accept: 'text/uri-list' }, body: new URLSearchParams({ dataset_uri: dataset, MW: 'true' }) })).text()).trim();
    const compounds = await lines(dataset + '/compounds');
    const seen = new Set<string>();
    for (const doc of [dataset, model, task, ...compounds]) {
      const t = turtle(await (await get(doc)).text());
      for (const q of t.store.getQuads(null, null, null, null)) {
        for (const term of [q.subject, q.object]) if (term.termType === 'NamedNode' && term.value.startsWith(app.url)) seen.add(term.value.split('#')[0]!);
      }
    }
    expect(seen.size).to.be.above(10);
    const failed: string[] = [];
    for (const uri of seen) {
      const res = await fetch(uri, { headers: { Accept: 'text/turtle, text/uri-list;q=0.5, */*;q=0.1' } });
      if (res.status !== 200 && res.status !== 202) failed.push(`${uri}: ${res.status}`);
    }
    expect(failed).to.deep.equal([]);
  });

  it('compound identity is stored with schema.org terms, not urn:opentox-service: ones', async () => {
    const [compound] = await lines(dataset + '/compounds');
    const graph = await app.deps.store.graph(compound!);
    expect(graph.some((q) => q.predicate.equals(SCHEMA.smiles) && q.object.value === 'CCO')).to.equal(true);
    expect(graph.some((q) => q.predicate.equals(SCHEMA.inChIKey) && q.object.value === 'LFQSCWFLJHTTHZ-UHFFFAOYSA-N')).to.equal(true);
    expect(graph.filter((q) => q.predicate.value.startsWith('urn:opentox-service:') && !q.predicate.equals(SVC.number) && !q.predicate.equals(SVC.structureFile))).to.deep.equal([]);
  });
});

describe('a store written with the old identity terms', function () {
  this.timeout(60_000);
  it('still serves the SMILES of its compounds after a restart', async () => {
    const first = await startApp();
    const dataset = (await uploadDataset(first, 'SMILES,logS\nCCO,1.5\n', 'text/csv')).body;
    const [compound] = await lines(dataset + '/compounds');
    // Rewrite the compound's graph as an older release wrote it.
    const old: Record<string, typeof SVC.smiles> = {
      [SCHEMA.smiles.value]: SVC.smiles, [SCHEMA.inChI.value]: SVC.inchi, [SCHEMA.inChIKey.value]: SVC.inchiKey,
      [SCHEMA.molecularFormula.value]: SVC.formula, [SCHEMA.molecularWeight.value]: SVC.molecularWeight,
    };
    const rewritten = (await first.deps.store.graph(compound!)).map((q) => DataFactory.quad(q.subject, old[q.predicate.value] ?? q.predicate, q.object));
    expect(rewritten.some((q) => q.predicate.equals(SVC.smiles))).to.equal(true);
    await first.deps.store.replaceGraph(compound!, rewritten);
    await first.close({ keepData: true });
    const again = await startApp({ baseUrl: first.url }, first.dataDir);
    const local = (u: string) => again.origin + u.slice(first.url.length);
    try {
      expect((await lines(local(dataset), 'text/csv'))[1]).to.equal(`${compound},CCO,1.5`);
      const res = await fetch(local(compound!), { headers: { Accept: 'chemical/x-daylight-smiles' } });
      expect(res.status).to.equal(200);
      expect((await res.text()).trim()).to.equal('CCO');
    } finally {
      await again.close();
    }
  });
});
