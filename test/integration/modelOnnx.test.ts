// Models out as ONNX: each learner's export, run by onnxruntime on the vectors the service
// builds for held-out compounds, predicts what POST /model/{id} predicts for them.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import * as ort from 'onnxruntime-node';
import { startApp, type TestApp } from '../helpers/app.ts';
import { followTask, uploadDataset } from '../helpers/datasets.ts';
import { entries } from '../helpers/datasetEntries.ts';
import { sharedData } from '../helpers/data.ts';
import { morganFingerprints } from '../../src/chem/morgan.ts';
import { computeDescriptors, DESCRIPTORS } from '../../src/chem/descriptors.ts';

const rows = (file: string) => readFileSync(sharedData('opentox-test', file), 'utf8').trim().split(/\r?\n/);

async function post(url: string, form: Record<string, string>): Promise<string> {
  const res = await fetch(url, { method: 'POST', headers: { Accept: 'text/uri-list' }, body: new URLSearchParams(form) });
  const text = (await res.text()).trim();
  const done = res.status === 202 ? await followTask(text) : { status: res.status, body: text };
  if (done.status !== 200) { const r = await fetch(done.body.startsWith("http") ? done.body : url, { headers: { Accept: "text/plain" } }); expect(done.status, `${done.body} ${await r.text()}`).to.equal(200); }
  return done.body;
}

async function featureUri(dataset: string, title: string): Promise<string> {
  const nt = await (await fetch(dataset, { headers: { Accept: 'application/n-triples' } })).text();
  const line = nt.split('\n').find((l) => l.includes('/feature/') && l.includes('/title> ') && l.includes(`"${title}"`))!;
  return line.slice(1, line.indexOf('>'));
}

/** The service's predictions for a dataset: SMILES and predicted value of each row. */
async function servicePredictions(model: string, dataset: string): Promise<Array<{ smiles: string; value: string; confidence?: string }>> {
  const result = await post(model, { dataset_uri: dataset });
  const csv = parse(await (await fetch(result, { headers: { Accept: 'text/csv' } })).text(), { columns: true }) as Array<Record<string, string>>;
  const column = Object.keys(csv[0]!).find((k) => k.includes(' predicted by ') && !k.includes(': '))!;
  const confidence = Object.keys(csv[0]!).find((k) => k === `${column}: confidence`);
  return csv.map((r) => ({ smiles: r.SMILES!, value: r[column]!, confidence: confidence && r[confidence] }));
}

async function onnx(model: string): Promise<ort.InferenceSession> {
  const res = await fetch(model, { headers: { Accept: 'application/onnx' } });
  expect(res.status).to.equal(200);
  expect(res.headers.get('content-type')).to.equal('application/onnx');
  return ort.InferenceSession.create(new Uint8Array(await res.arrayBuffer()));
}

async function run(session: ort.InferenceSession, vectors: number[][]): Promise<ort.InferenceSession.OnnxValueMapType> {
  const width = vectors[0]!.length;
  expect(session.inputNames).to.deep.equal(['X']);
  return session.run({ X: new ort.Tensor('float64', Float64Array.from(vectors.flat()), [vectors.length, width]) });
}

const morgan = async (smiles: string[], bits: number, maccs = false, toxicophores = false) => (await morganFingerprints(smiles, { radius: 2, bits, maccs, toxicophores })).map((v) => v!);
const descriptors = async (smiles: string[]) => (await computeDescriptors(smiles, DESCRIPTORS)).map((r) => r as number[]);

describe('GET /model/{id} as application/onnx', function () {
  this.timeout(600_000);
  let app: TestApp;
  let kazius: string;
  let kaziusTarget: string;
  let kaziusTest: string;
  let epa: string;
  let epaTarget: string;
  let epaTest: string;
  before(async () => {
    app = await startApp();
    // EPAFHM: 300 training rows, 40 held out.
    // kazius lists its mutagens first: 150 + 150 training rows, 20 + 20 held out, from both ends.
    const k = rows('kazius.csv');
    kazius = (await uploadDataset(app, [k[0], ...k.slice(1, 151), ...k.slice(-150)].join('\n') + '\n', 'text/csv')).body;
    kaziusTest = (await uploadDataset(app, ['SMILES', ...[...k.slice(151, 171), ...k.slice(-170, -150)].map((l) => l.split(',')[0])].join('\n') + '\n', 'text/csv')).body;
    kaziusTarget = await featureUri(kazius, 'Mutagenicity');
    const e = rows('EPAFHM.csv');
    epa = (await uploadDataset(app, [e[0], ...e.slice(1, 301)].join('\n') + '\n', 'text/csv')).body;
    epaTest = (await uploadDataset(app, ['SMILES', ...e.slice(301, 341).map((l) => l.split(',')[0])].join('\n') + '\n', 'text/csv')).body;
    epaTarget = await featureUri(epa, 'LC50_mmol');
  });
  after(async () => { await app.close(); });

  const classifiers: Array<[string, string, Record<string, string>, (s: string[]) => Promise<number[][]>]> = [
    ['random forest (TreeEnsembleClassifier), fingerprints', 'random-forest', { trees: '25', bits: '1024' }, (s) => morgan(s, 1024, true)],
    ['random forest, fingerprints and toxicophores', 'random-forest', { trees: '25', bits: '1024', toxicophores: 'true' }, (s) => morgan(s, 1024, true, true)],
    ['logistic regression (Scaler + LinearClassifier), descriptors', 'logistic-regression', { representation: 'descriptors' }, descriptors],
    ['kNN, Tanimoto on fingerprints (standard operators)', 'knn', { k: '5', bits: '512' }, (s) => morgan(s, 512)],
  ];
  for (const [name, algorithm, params, vectorsOf] of classifiers) {
    it(`kazius, ${name}: the same classes as the service on held-out compounds`, async () => {
      const model = await post(`${app.url}/algorithm/${algorithm}`, { dataset_uri: kazius, prediction_feature: kaziusTarget, folds: '2', ...params });
      const expected = await servicePredictions(model, kaziusTest);
      const out = await run(await onnx(model), await vectorsOf(expected.map((r) => r.smiles)));
      expect(Array.from(out.label!.data as string[])).to.deep.equal(expected.map((r) => r.value));
      expect(new Set(expected.map((r) => r.value)).size, 'both classes are predicted').to.equal(2);
      const p = out.probabilities!.data as Float32Array | Float64Array;
      for (let i = 0; i < expected.length; i++) {
        expect(p[2 * i]! + p[2 * i + 1]!).to.be.closeTo(1, 1e-5);
        // A forest's and a logistic model's confidence is the probability of the predicted class.
        if (algorithm !== 'knn') expect(Math.max(p[2 * i]!, p[2 * i + 1]!), expected[i]!.smiles).to.be.closeTo(Number(expected[i]!.confidence), 1e-5);
      }
    });
  }

  const regressions: Array<[string, string, Record<string, string>]> = [
    ['random forest (TreeEnsembleRegressor)', 'random-forest', { trees: '20', representation: 'descriptors' }],
    ['MLR (MatMul + Add, double)', 'mlr', {}],
    ['kNN, Euclidean on standardised descriptors (standard operators)', 'knn', { k: '3', representation: 'descriptors' }],
  ];
  for (const [name, algorithm, params] of regressions) {
    it(`EPAFHM, ${name}: the service's values within 1e-6 relative on held-out compounds`, async () => {
      const model = await post(`${app.url}/algorithm/${algorithm}`, { dataset_uri: epa, prediction_feature: epaTarget, folds: '2', ...params });
      const expected = await servicePredictions(model, epaTest);
      const out = await run(await onnx(model), await descriptors(expected.map((r) => r.smiles)));
      const got = Array.from(out.value!.data as Float32Array | Float64Array);
      expect(got).to.have.length(expected.length);
      expected.forEach((r, i) => {
        const want = Number(r.value);
        expect(Number.isFinite(want), r.value).to.equal(true);
        expect(Math.abs(got[i]! - want), `${r.smiles}: ${got[i]} vs ${want}`).to.be.at.most(1e-6 * Math.abs(want) + 1e-12);
      });
    });
  }

  // Three classes coded by functional group (Normalizer after LinearClassifier; three-way votes).
  it('three classes: logistic regression, random forest and kNN give the service\'s classes and probabilities', async () => {
    const coded = 'SMILES,Group\n' + ['CCO', 'CCCO', 'CCCCO', 'CC(C)O', 'CCCCCO', 'OCCCCCCO'].map((s) => `${s},alcohol`).join('\n') + '\n'
      + ['CCN', 'CCCN', 'CCCCN', 'CC(C)N', 'CCCCCN', 'NCCCCCCN'].map((s) => `${s},amine`).join('\n') + '\n'
      + ['CC(=O)O', 'CCC(=O)O', 'CCCC(=O)O', 'CC(C)C(=O)O', 'CCCCC(=O)O', 'OC(=O)CCCCC(=O)O'].map((s) => `${s},acid`).join('\n') + '\n';
    const dataset = (await uploadDataset(app, coded, 'text/csv')).body;
    const query = (await uploadDataset(app, 'SMILES\nCCCCCCO\nCCCCCCN\nCCCCCC(=O)O\nOCCN\nNCC(=O)O\n', 'text/csv')).body;
    const target = await featureUri(dataset, 'Group');
    for (const [algorithm, params] of [['logistic-regression', { representation: 'morgan', bits: '256' }], ['random-forest', { trees: '15', bits: '256' }], ['knn', { k: '3', bits: '256' }]] as const) {
      const model = await post(`${app.url}/algorithm/${algorithm}`, { dataset_uri: dataset, prediction_feature: target, folds: '2', ...params });
      const expected = await servicePredictions(model, query);
      const out = await run(await onnx(model), await morgan(expected.map((r) => r.smiles), 256, algorithm === 'random-forest'));
      expect(Array.from(out.label!.data as string[]), algorithm).to.deep.equal(expected.map((r) => r.value));
      expect(out.probabilities!.dims, algorithm).to.deep.equal([expected.length, 3]);
      const p = Array.from(out.probabilities!.data as Float32Array | Float64Array);
      for (let i = 0; i < expected.length; i++) expect(p[3 * i]! + p[3 * i + 1]! + p[3 * i + 2]!, algorithm).to.be.closeTo(1, 1e-5);
    }
  });

  it('a model of the dataset\'s own features takes them as input, in the order its metadata lists them', async () => {
    const e = (parse(rows('EPAFHM.csv').join('\n')) as string[][]).slice(1, 161);
    const d = await descriptors(e.map((r) => r[0]!));
    const csv = ['SMILES,TPSA,LogP,MW,LC50', ...e.map((r, i) => `"${r[0]}",${d[i]![4]},${d[i]![2]},${d[i]![0]},${r[1]}`)].join('\n') + '\n';
    const all = (await uploadDataset(app, csv, 'text/csv')).body;
    const nt = await (await fetch(all, { headers: { Accept: 'application/n-triples' } })).text();
    const train = (await uploadDataset(app, entries(nt, (n) => n <= 120), 'application/n-triples')).body;
    const test = (await uploadDataset(app, entries(nt, (n) => n > 120), 'application/n-triples')).body;
    const uriOf = async (title: string) => featureUri(all, title);
    const titles = new Map<string, string>();
    for (const t of ['TPSA', 'LogP', 'MW']) titles.set(await uriOf(t), t);
    const testRows = parse(await (await fetch(test, { headers: { Accept: 'text/csv' } })).text(), { columns: true }) as Array<Record<string, string>>;
    for (const algorithm of ['mlr', 'random-forest']) {
      const model = await post(`${app.url}/algorithm/${algorithm}`, { dataset_uri: train, prediction_feature: await uriOf('LC50'), representation: 'features', folds: '2', ...(algorithm === 'mlr' ? {} : { trees: '15' }) });
      const bytes = Buffer.from(await (await fetch(model, { headers: { Accept: 'application/onnx' } })).arrayBuffer()).toString('utf8');
      const at = bytes.indexOf('[', bytes.indexOf('input_features'));
      const order = JSON.parse(bytes.slice(at, bytes.indexOf(']', at) + 1)) as string[];
      // The model's ot:independentVariables, every one and nothing else.
      const rdf = await (await fetch(model, { headers: { Accept: 'application/n-triples' } })).text();
      const independent = [...rdf.matchAll(/#independentVariables> <([^>]+)>/g)].map((m) => m[1]);
      expect([...order].sort()).to.deep.equal([...independent].sort());
      expect([...order].sort()).to.deep.equal([...titles.keys()].sort());
      const expected = await servicePredictions(model, test);
      const X = testRows.map((r) => order.map((u) => Number(r[titles.get(u)!])));
      const got = Array.from((await run(await onnx(model), X)).value!.data as Float32Array | Float64Array);
      expected.forEach((r, i) => expect(Math.abs(got[i]! - Number(r.value)), `${algorithm} ${r.smiles}`).to.be.at.most(1e-6 * Math.abs(Number(r.value)) + 1e-12));
    }
  });

  it('names the inputs in its metadata, in the order of the vector', async () => {
    const model = await post(`${app.url}/algorithm/mlr`, { dataset_uri: epa, prediction_feature: epaTarget, folds: '2' });
    const session = await onnx(model);
    expect(session.inputMetadata?.[0]).to.include({ name: 'X' });
    const res = await fetch(model, { headers: { Accept: 'application/onnx' } });
    const bytes = Buffer.from(await res.arrayBuffer()).toString('latin1');
    expect(bytes).to.contain(model);
    expect(bytes).to.contain(JSON.stringify(DESCRIPTORS.map((d) => `${d.name} (${d.title}, RDKit)`)).slice(0, 40));
    // RDF stays the default.
    const rdf = await fetch(model, { headers: { Accept: '*/*' } });
    expect(rdf.headers.get('content-type')).to.contain('application/rdf+xml');
  });

  it('an applicability-domain model answers 406 with a report that says why', async () => {
    const model = await post(`${app.url}/algorithm/applicability-domain`, { dataset_uri: kazius, bits: '256' });
    const res = await fetch(model, { headers: { Accept: 'application/onnx' } });
    expect(res.status).to.equal(406);
    const report = await (await fetch(model, { headers: { Accept: 'application/onnx, text/plain;q=0.1' } })).text();
    expect(report).to.contain('NotAcceptable');
    expect(report).to.contain('applicability-domain model');
  });
});
