import { expect } from 'chai';
import { startApp, type TestApp } from '../helpers/app.ts';
import { readFileSync } from 'node:fs';
import { followTask, lines, uploadDataset } from '../helpers/datasets.ts';
import { sharedData } from '../helpers/data.ts';

const form = (f: Record<string, string | string[]>) => {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(f)) for (const x of Array.isArray(v) ? v : [v]) body.append(k, x);
  return body;
};

/** POSTs a form and follows the task; answers the final status and the result (or error) text. */
async function apply(url: string, f: Record<string, string | string[]>): Promise<{ status: number; body: string }> {
  const res = await fetch(url, { method: 'POST', headers: { Accept: 'text/uri-list' }, body: form(f) });
  const text = (await res.text()).trim();
  return res.status === 202 ? followTask(text) : { status: res.status, body: text };
}

const nt = async (url: string) => (await fetch(url, { headers: { Accept: 'application/n-triples' } })).text();
const objects = (triples: string, subject: string, predicate: string) => triples.split('\n')
  .filter((l) => l.startsWith(`<${subject}> `) && l.includes(`${predicate}> `))
  .map((l) => l.slice(l.indexOf(`${predicate}> `) + predicate.length + 2, l.lastIndexOf(' .')).replace(/^<|>$/g, '').replace(/^"(.*)"(\^\^<[^>]*>)?$/, '$1'));
const featureOf = async (dataset: string, title: string) => {
  const triples = await nt(dataset);
  const line = triples.split('\n').find((l) => l.includes('/title> ') && l.includes(`"${title}"`) && l.startsWith('<') && l.includes('/feature/'));
  return line!.slice(1, line!.indexOf('>'));
};

/** The model's predicted-value feature (not its confidence or domain flag). */
async function predictedValue(model: string): Promise<string> {
  for (const f of objects(await nt(model), model, '#predictedVariables')) {
    if (!objects(await nt(f), f, '/title')[0]!.includes(': ')) return f;
  }
  throw new Error(`${model} has no predicted value feature`);
}

// Activity coded 0/1/2 by functional group: alcohols 0, amines 1, carboxylic acids 2.
const CODED = `SMILES,Activity
CCO,0
CCCO,0
CCCCO,0
CC(C)O,0
CCCCCO,0
CCN,1
CCCN,1
CCCCN,1
CC(C)N,1
CCCCCN,1
CC(=O)O,2
CCC(=O)O,2
CCCC(=O)O,2
CC(C)C(=O)O,2
CCCCC(=O)O,2
`;

describe('models a toxicologist can trust', function () {
  this.timeout(300_000);
  let app: TestApp;
  before(async () => { app = await startApp(); });
  after(async () => { await app.close(); });

  describe('integer-coded classes (SPEC §2.2 ot:NominalFeature)', () => {
    let nominal: string;
    let activity: string;
    before(async () => {
      const up = await uploadDataset(app, CODED, 'text/csv', `${app.url}/dataset?nominal=Activity`);
      expect(up.status, up.body).to.equal(200);
      nominal = up.body;
      activity = await featureOf(nominal, 'Activity');
    });

    it('POST /dataset?nominal=<column> stores that column as a nominal feature with its accept values', async () => {
      const triples = await nt(activity);
      expect(objects(triples, activity, '#type')).to.include('http://www.opentox.org/api/1.1#NominalFeature');
      expect(objects(triples, activity, '#acceptValue').sort()).to.deep.equal(['0', '1', '2']);
    });

    it('a nominal column that is not in the upload answers 400 naming it', async () => {
      const res = await fetch(`${app.url}/dataset?nominal=Activty`, { method: 'POST', headers: { 'Content-Type': 'text/csv' }, body: CODED });
      expect(res.status).to.equal(400);
      const text = await res.text();
      expect(text).to.contain('Activty').and.contain('"Activity"');
    });

    it('kNN and random forest learn classes from a nominal feature, and k=1 predicts each training compound its own class', async () => {
      for (const id of ['knn', 'random-forest']) {
        const built = await apply(`${app.url}/algorithm/${id}`, { dataset_uri: nominal, prediction_feature: activity, folds: '3', ...(id === 'knn' ? { k: '1' } : { trees: '10' }) });
        expect(built.status, built.body).to.equal(200);
        const triples = await nt(built.body);
        expect(triples, id).to.contain('#classificationStatistics>').and.not.contain('#regressionStatistics>');
        const value = await predictedValue(built.body);
        expect(objects(await nt(value), value, '#acceptValue').sort(), id).to.deep.equal(['0', '1', '2']);
        if (id !== 'knn') continue;
        const predicted = await apply(built.body, { dataset_uri: nominal });
        expect(predicted.status, predicted.body).to.equal(200);
        const csv = (await lines(predicted.body, 'text/csv')).slice(1).map((l) => l.split(','));
        // Each compound's nearest training compound is itself (Tanimoto 1): its own class.
        expect(csv.map((r) => r[2])).to.deep.equal(CODED.trim().split('\n').slice(1).map((l) => l.split(',')[1]));
        // The prediction's RDF names that neighbour as a node: training compound, similarity 1, measured class.
        const out = await nt(predicted.body);
        const entries = objects(out, predicted.body, '#dataEntry');
        expect(entries).to.have.length(15);
        const own = CODED.trim().split('\n').slice(1).map((l) => l.split(',')[1]);
        const compoundOrder = (await lines(nominal, 'text/csv')).slice(1).map((l) => l.split(',')[0]);
        for (const e of entries) {
          const [node] = objects(out, e, '/ontology/service#neighbour');
          expect(node, e).to.equal(`${e}#neighbour-1`);
          const compound = objects(out, node!, '#trainingCompound')[0]!;
          expect(compound).to.equal(objects(out, e, '#compound')[0]);
          expect(out).to.contain(`<${node}> <${app.url}/ontology/service#similarity> "1"^^<http://www.w3.org/2001/XMLSchema#double>`);
          expect(out).to.contain(`<${node}> <${app.url}/ontology/service#measuredValue> "${own[compoundOrder.indexOf(compound)]}"`);
        }
      }
    });

    it('a single class answers 400 naming the feature in every classifier (the data is at fault, not the learner)', async () => {
      const one = (await uploadDataset(app, 'SMILES,Active\nCCO,yes\nCCCO,yes\nCCCCO,yes\nCCN,yes\n', 'text/csv')).body;
      const target = await featureOf(one, 'Active');
      for (const id of ['knn', 'random-forest', 'logistic-regression']) {
        const res = await apply(`${app.url}/algorithm/${id}`, { dataset_uri: one, prediction_feature: target });
        expect(res.status, `${id}: ${res.body}`).to.equal(400);
        const report = await (await fetch(res.body, { headers: { Accept: 'text/turtle' } })).text();
        expect(report, id).to.contain(`prediction_feature ${target} has a single class`).and.contain('InvalidParameter');
      }
    });

    it('a target the algorithm cannot learn answers 400 saying why (not a 500 model-building failure)', async () => {
      const res = await apply(`${app.url}/algorithm/mlr`, { dataset_uri: nominal, prediction_feature: activity });
      expect(res.status, res.body).to.equal(400);
      const report = await (await fetch(res.body, { headers: { Accept: 'text/turtle' } })).text();
      expect(report, report).to.contain('is a nominal feature (ot:NominalFeature), so it asks for classification, but this algorithm does regression only');
    });

    it('a classification-only algorithm reads a numeric feature of a few integers as classes', async () => {
      const numeric = (await uploadDataset(app, CODED, 'text/csv')).body;
      const codes = await featureOf(numeric, 'Activity');
      expect(objects(await nt(codes), codes, '#type')).to.include('http://www.opentox.org/api/1.1#NumericFeature');
      const built = await apply(`${app.url}/algorithm/logistic-regression`, { dataset_uri: numeric, prediction_feature: codes, folds: '3' });
      expect(built.status, built.body).to.equal(200);
      const triples = await nt(built.body);
      expect(triples).to.contain('#classificationStatistics>');
      const cells = objects(triples, `${built.body}#statistics`, '#confusionMatrix');
      expect(cells).to.have.length(9);
    });
  });

  it('each model has its own predicted and confidence features, with ot:hasSource the model', async () => {
    const a = (await uploadDataset(app, CODED, 'text/csv', `${app.url}/dataset?nominal=Activity`)).body;
    const b = (await uploadDataset(app, CODED.split('\n').slice(0, 12).join('\n') + '\n', 'text/csv', `${app.url}/dataset?nominal=Activity`)).body;
    const models: string[] = [];
    const predicted: string[][] = [];
    for (const d of [a, b]) {
      const built = await apply(`${app.url}/algorithm/knn`, { dataset_uri: d, prediction_feature: await featureOf(d, 'Activity'), folds: '2' });
      expect(built.status, built.body).to.equal(200);
      models.push(built.body);
      predicted.push(objects(await nt(built.body), built.body, '#predictedVariables'));
    }
    // Value, confidence and domain flag; the neighbours are an output of their own (neighbours.test.ts).
    expect(predicted[0]).to.have.length(3);
    expect(predicted[0]!.filter((f) => predicted[1]!.includes(f))).to.deep.equal([]);
    for (const [k, features] of predicted.entries()) {
      for (const f of features) expect(objects(await nt(f), f, '#hasSource'), f).to.deep.equal([models[k]]);
    }
  });

  describe('the feature calculation chain', () => {
    // The first 30 rows of EPAFHM: structures and measured LC50 (mmol/l).
    const epa = readFileSync(sharedData('opentox-test', 'EPAFHM.csv'), 'utf8').trim().split(/\r?\n/).slice(0, 31).join('\n') + '\n';
    const measured = epa.trim().split('\n').slice(1).map((l) => l.slice(l.lastIndexOf(',') + 1));
    let structures: string;
    let lc50: string;
    before(async () => {
      structures = (await uploadDataset(app, epa, 'text/csv')).body;
      lc50 = await featureOf(structures, 'LC50_mmol');
    });

    it('a model trained on physchem descriptors computes them for a dataset of structures only', async () => {
      const described = await apply(`${app.url}/algorithm/physchem`, { dataset_uri: structures, Kappa1: 'false' });
      expect(described.status, described.body).to.equal(200);
      const built = await apply(`${app.url}/algorithm/knn`, { dataset_uri: described.body, prediction_feature: lc50, representation: 'features', k: '1', folds: '2' });
      expect(built.status, built.body).to.equal(200);
      const predicted = await apply(built.body, { dataset_uri: structures });
      expect(predicted.status, predicted.body).to.equal(200);
      const csv = (await lines(predicted.body, 'text/csv')).slice(1).map((l) => l.split(','));
      const value = (await lines(predicted.body, 'text/csv'))[0]!.split(',').findIndex((t) => t.endsWith('predicted by k-nearest neighbours read-across'));
      // k=1 on the training compounds: each one's nearest neighbour is itself, so the
      // prediction is its own measured value, as it is only when the descriptors are computed.
      const rows = measured.flatMap((m, i) => (m === '' ? [] : [i]));
      expect(rows.length).to.be.greaterThan(20);
      expect(rows.map((i) => Number(csv[i]![value]))).to.deep.equal(rows.map((i) => Number(measured[i])));
    });

    it('a model on features no algorithm of this service computes answers 400 naming them', async () => {
      const withX = epa.replace('"STRUCTURE_SMILES","LC50_mmol"', '"STRUCTURE_SMILES","LC50_mmol","x"').split('\n').map((l, i) => (i === 0 || !l ? l : `${l},${i % 7}`)).join('\n');
      const training = (await uploadDataset(app, withX, 'text/csv')).body;
      const built = await apply(`${app.url}/algorithm/knn`, { dataset_uri: training, prediction_feature: await featureOf(training, 'LC50_mmol'), representation: 'features', folds: '2' });
      expect(built.status, `${built.body}: ${await (await fetch(built.body, { headers: { Accept: 'text/turtle' } })).text()}`).to.equal(200);
      const x = await featureOf(training, 'x');
      const res = await apply(built.body, { dataset_uri: structures });
      expect(res.status, res.body).to.equal(400);
      const report = await (await fetch(res.body, { headers: { Accept: 'text/turtle' } })).text();
      expect(report).to.contain('FeatureNotInDataset').and.contain(`x <${x}>`);
    });
  });

  it('a random forest large enough for worker threads builds inside a task, its progress moving', async () => {
    const hamster = (await uploadDataset(app, readFileSync(sharedData('opentox-test', 'hamster_carcinogenicity.csv'), 'utf8'), 'text/csv')).body;
    const target = await featureOf(hamster, 'Hamster Carcinogenicity');
    // Every task write the service makes, observed on its real store as it happens.
    const store = app.deps.store;
    const replaceGraph = store.replaceGraph.bind(store);
    const written: Array<{ graph: string; percent: number }> = [];
    store.replaceGraph = (graph, quads) => {
      const percent = quads.find((q) => q.predicate.value.endsWith('#percentageCompleted'))?.object.value;
      if (percent !== undefined) written.push({ graph, percent: Number(percent) });
      return replaceGraph(graph, quads);
    };
    const res = await fetch(`${app.url}/algorithm/random-forest`, { method: 'POST', headers: { Accept: 'text/uri-list' }, body: form({ dataset_uri: hamster, prediction_feature: target, trees: '2000', folds: '4' }) });
    expect(res.status).to.equal(202);
    const task = (await res.text()).trim();
    const done = await followTask(task).finally(() => { store.replaceGraph = replaceGraph; });
    expect(done.status, done.body).to.equal(200);
    expect(await nt(done.body)).to.contain('#classificationStatistics>');
    // Between the start (10) and the end (100), the forest's trees move the bar: every
    // progress value the task was stored with (throttled to one write per 500 ms, over a
    // build of several seconds), as a client polling at that moment read it.
    const percents = written.filter((w) => w.graph === task).map((w) => w.percent);
    expect(percents.filter((p) => p > 10 && p < 100).length, percents.join(' ')).to.be.at.least(2);
  });
});
