// A complete OpenTox client workflow over HTTP, as a user of the README would run it:
// compounds in and out in several formats, a dataset uploaded through the task protocol
// (SPEC §4.3), read back in every format and restricted, queried through /sparql with the
// documented graph layout, and searched by similarity and substructure.
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import type * as RDF from '@rdfjs/types';
import { startApp, type TestApp } from '../helpers/app.ts';
import { sharedData } from '../helpers/data.ts';
import { parseRdfXmlStrict } from '../helpers/rdf.ts';
import { sleep, uriList } from '../helpers/tasks.ts';
import { OT, RDF as RDFV } from '../../src/rdf/vocab.ts';

const ASPIRIN = 'CC(=O)Oc1ccccc1C(=O)O';
const BENZOIC_INCHI = 'InChI=1S/C7H6O2/c8-7(9)6-4-2-1-3-5-6/h1-5H,(H,8,9)';
const METHANOL_MOL = ['', '  e2e', '', '  2  1  0  0  0  0  0  0  0  0999 V2000',
  '    0.0000    0.0000    0.0000 C   0  0  0  0  0  0  0  0  0  0  0  0',
  '    1.2990    0.7500    0.0000 O   0  0  0  0  0  0  0  0  0  0  0  0',
  '  1  2  1  0', 'M  END', ''].join('\n');

describe('e2e: an OpenTox client workflow', function () {
  this.timeout(60_000);
  let app: TestApp;
  let dataset: string;
  let feature: string;
  const compounds: Record<string, string> = {};

  before(async () => { app = await startApp(); });
  after(async () => { await app.close(); });

  const get = (path: string, accept: string) => fetch(path.startsWith('http') ? path : app.url + path, { headers: { Accept: accept } });
  const expectType = (res: Response, type: string) => expect(res.headers.get('content-type')).to.match(new RegExp(`^${type.replace(/[+.]/g, '\\$&')}\\b`));

  /** What a client does with an answer that may be a task: follow it until it is final. */
  async function resultOf(res: Response): Promise<string> {
    if (res.status === 200) return (await res.text()).trim();
    expect(res.status, await res.clone().text()).to.equal(202);
    const task = res.headers.get('location');
    expect(task).to.match(/\/task\/[0-9a-f-]+$/);
    expect(uriList(await res.text())).to.deep.equal([task]);
    for (const until = Date.now() + 30_000; Date.now() < until; await sleep(100)) {
      const poll = await get(task!, 'text/uri-list');
      expectType(poll, 'text/uri-list');
      const body = (await poll.text()).trim();
      if (poll.status === 202) continue;
      expect(poll.status, body).to.equal(200);
      return body;
    }
    throw new Error(`task ${task} did not finish`);
  }

  it('stores compounds posted as SMILES, InChI and molfile, and knows a structure again', async () => {
    const post = async (type: string, body: string) => {
      const res = await fetch(`${app.url}/compound`, { method: 'POST', headers: { 'Content-Type': type, Accept: 'text/uri-list' }, body });
      expect(res.status).to.equal(200);
      expectType(res, 'text/uri-list');
      return (await res.text()).trim();
    };
    compounds.aspirin = await post('chemical/x-daylight-smiles', ASPIRIN);
    compounds.benzoic = await post('chemical/x-inchi', BENZOIC_INCHI);
    compounds.methanol = await post('chemical/x-mdl-molfile', METHANOL_MOL);
    expect(new Set(Object.values(compounds)).size).to.equal(3);
    for (const uri of Object.values(compounds)) expect(uri).to.match(new RegExp(`^${app.url}/compound/\\d+$`));
    expect(await post('chemical/x-daylight-smiles', 'OC(=O)c1ccccc1')).to.equal(compounds.benzoic);
  });

  it('reads compounds back in other formats', async () => {
    const cases: Array<[string, string, RegExp]> = [
      ['aspirin', 'chemical/x-inchikey', /^BSYNRYMUTXBXSQ-UHFFFAOYSA-N\s*$/],
      ['aspirin', 'chemical/x-mdl-molfile', /V2000[\s\S]*M {2}END/],
      ['benzoic', 'chemical/x-daylight-smiles', /^O=C\(O\)c1ccccc1\s*$/],
      ['methanol', 'chemical/x-inchi', /^InChI=1S\/CH4O\/c1-2\/h2H,1H3\s*$/],
      ['methanol', 'chemical/x-mdl-sdfile', /M {2}END[\s\S]*\$\$\$\$/],
    ];
    for (const [name, type, body] of cases) {
      const res = await get(compounds[name]!, type);
      expect(res.status, `${name} as ${type}`).to.equal(200);
      expectType(res, type);
      expect(await res.text(), `${name} as ${type}`).to.match(body);
    }
    const png = await get(`${compounds.aspirin}?media=image/png`, '*/*');
    expectType(png, 'image/png');
    expect(Buffer.from(await png.arrayBuffer()).subarray(1, 4).toString()).to.equal('PNG');
  });

  it('uploads a dataset through the task protocol', async () => {
    const sdf = readFileSync(sharedData('opentox-test', 'hamster_carcinogenicity.sdf'));
    const res = await fetch(`${app.url}/dataset`, { method: 'POST', headers: { 'Content-Type': 'chemical/x-mdl-sdfile', Accept: 'text/uri-list' }, body: sdf });
    expect(res.status, 'an upload this size runs as a task').to.equal(202);
    dataset = await resultOf(res);
    expect(dataset).to.match(new RegExp(`^${app.url}/dataset/\\d+$`));
    const listed = await get('/dataset', 'text/uri-list');
    expect(uriList(await listed.text())).to.include(dataset);
  });

  it('reads the dataset as CSV, RDF/XML and SD file', async () => {
    const csv = await get(dataset, 'text/csv');
    expect(csv.status).to.equal(200);
    expectType(csv, 'text/csv');
    const [header, ...rows] = (await csv.text()).trim().split(/\r?\n/);
    expect(header).to.equal('Compound,SMILES,ActivityOutcome_CPDBAS_Hamster');
    expect(rows).to.have.length.within(80, 85);

    const xml = await get(dataset, 'application/rdf+xml');
    expectType(xml, 'application/rdf+xml');
    const quads = await parseRdfXmlStrict(await xml.text());
    const has = (s: string | null, p: RDF.NamedNode, o?: string) => quads.filter((q) => (s === null || q.subject.value === s) && q.predicate.equals(p) && (o === undefined || q.object.value === o));
    expect(has(dataset, RDFV.type, OT.Dataset.value)).to.have.length(1);
    expect(has(dataset, OT.dataEntry)).to.have.length(rows.length);
    const features = has(null, RDFV.type, OT.Feature.value).map((q) => q.subject.value);
    expect(features).to.have.length(1);
    feature = features[0]!;
    expect(has(null, OT.feature, feature)).to.have.length(rows.length);

    const sd = await get(dataset, 'chemical/x-mdl-sdfile');
    expectType(sd, 'chemical/x-mdl-sdfile');
    const text = await sd.text();
    expect(text.match(/^\$\$\$\$$/gm)).to.have.length(rows.length);
    expect(text).to.include('> <ActivityOutcome_CPDBAS_Hamster>');
  });

  it('restricts the dataset by compound_uris[] and feature_uris[]', async () => {
    const all = uriList(await (await get(dataset, 'text/uri-list')).text());
    const some = all.slice(0, 2);
    const q = new URLSearchParams([...some.map((c) => ['compound_uris[]', c]), ['feature_uris[]', feature]]);
    const res = await get(`${dataset}?${q}`, 'text/csv');
    expect(res.status).to.equal(200);
    const lines = (await res.text()).trim().split(/\r?\n/);
    expect(lines[0]).to.equal('Compound,SMILES,ActivityOutcome_CPDBAS_Hamster');
    expect(lines.slice(1).map((l) => l.split(',')[0])).to.deep.equal(some);
  });

  it('queries the dataset values through /sparql with the documented graph layout', async () => {
    const query = `PREFIX ot: <${OT.dataEntry.value.replace(/dataEntry$/, '')}>
      SELECT ?compound ?value WHERE { GRAPH <${dataset}> {
        <${dataset}> ot:dataEntry ?entry . ?entry ot:compound ?compound ; <${feature}> ?value . } }`;
    const res = await fetch(`${app.url}/sparql?${new URLSearchParams({ query })}`, { headers: { Accept: 'application/sparql-results+json' } });
    expect(res.status).to.equal(200);
    expectType(res, 'application/sparql-results+json');
    const bindings = (await res.json()).results.bindings as Array<Record<string, { value: string }>>;
    const csvRows = (await (await get(dataset, 'text/csv')).text()).trim().split(/\r?\n/).slice(1);
    expect(bindings).to.have.length(csvRows.length);
    const fromCsv = new Set(csvRows.map((r) => r.split(',')).map((c) => `${c[0]} ${c[c.length - 1]}`));
    for (const b of bindings) expect(fromCsv.has(`${b.compound!.value} ${b.value!.value}`), JSON.stringify(b)).to.equal(true);
  });

  it('searches compounds by similarity and substructure', async () => {
    const sim = await get(`/compound?${new URLSearchParams({ similarity: 'OC(=O)c1ccccc1O', threshold: '0.3' })}`, 'text/csv');
    expect(sim.status).to.equal(200);
    expectType(sim, 'text/csv');
    const simRows = (await sim.text()).trim().split(/\r?\n/);
    expect(simRows[0]).to.equal('compound,similarity');
    const hits = simRows.slice(1).map((r) => r.split(','));
    expect(hits.map((h) => h[0])).to.include.members([compounds.aspirin, compounds.benzoic]);
    const values = hits.map((h) => Number(h[1]));
    expect(values).to.deep.equal([...values].sort((a, b) => b - a));

    const sub = await get(`/compound?${new URLSearchParams({ substructure: 'c1ccccc1C(=O)O' })}`, 'text/uri-list');
    expect(sub.status).to.equal(200);
    expectType(sub, 'text/uri-list');
    const found = uriList(await sub.text());
    expect(found).to.include.members([compounds.aspirin, compounds.benzoic]);
    expect(found).not.to.include(compounds.methanol);
  });

  it('computes descriptors, trains a model and predicts, all through the task protocol', async () => {
    const apply = async (uri: string, params: Array<[string, string]>) => resultOf(await fetch(uri, {
      method: 'POST', headers: { Accept: 'text/uri-list' }, body: new URLSearchParams(params),
    }));
    const csvOf = async (uri: string) => {
      const res = await get(uri, 'text/csv');
      expect(res.status).to.equal(200);
      expectType(res, 'text/csv');
      return (await res.text()).trim().split(/\r?\n/);
    };
    const rows = (await csvOf(dataset)).length - 1;

    const descriptors = await apply(`${app.url}/algorithm/rdkit-mw`, [['dataset_uri', dataset]]);
    expect(descriptors).to.match(new RegExp(`^${app.url}/dataset/\\d+$`));
    const described = await csvOf(descriptors);
    expect(described).to.have.length(rows + 1);
    expect(described[1]!.split(',').slice(2).some((v) => Number(v) > 0), described[1]).to.equal(true);

    const model = await apply(`${app.url}/algorithm/knn`, [['dataset_uri', dataset], ['prediction_feature', feature], ['k', '3']]);
    expect(model).to.match(new RegExp(`^${app.url}/model/\\d+$`));
    const xml = await get(model, 'application/rdf+xml');
    expect(xml.status).to.equal(200);
    const quads = await parseRdfXmlStrict(await xml.text());
    expect(quads.some((q) => q.subject.value === model && q.predicate.equals(RDFV.type) && q.object.equals(OT.Model))).to.equal(true);
    expect(quads.some((q) => q.subject.value === model && q.predicate.equals(OT.trainingDataset) && q.object.value === dataset)).to.equal(true);

    const predictions = await apply(model, [['dataset_uri', dataset]]);
    expect(predictions).to.match(new RegExp(`^${app.url}/dataset/\\d+$`));
    const predicted = await csvOf(predictions);
    expect(predicted).to.have.length(rows + 1);
    expect(predicted[0]!.split(',').length).to.be.greaterThan(2);
  });
});
