import { expect } from 'chai';
import { startApp, type TestApp } from '../helpers/app.ts';
import { followTask, lines, uploadDataset } from '../helpers/datasets.ts';
import { createModel } from '../../src/models/models.ts';
import type { Predictor } from '../../src/models/predictors.ts';
import { ensureFeature } from '../../src/features/features.ts';
import { loadDataset } from '../../src/datasets/datasetLoad.ts';
import { datasetRef } from '../../src/algorithms/datasetIO.ts';

// A real (if minimal) learner: the mean of the training values, the baseline every
// regression model is compared against.
const predictor: Predictor = async ({ data, dataset }) => ({
  values: dataset.compounds.map(() => [(data as { mean: number }).mean]),
});

describe('/model', function () {
  this.timeout(120_000);
  let app: TestApp;
  let model: string;
  let training: string;
  before(async () => {
    app = await startApp();
    app.deps.predictors.set('test-mean', predictor);
    training = (await uploadDataset(app, 'SMILES,logS\nCCO,1\nCCCO,2\nCCCCO,3\n', 'text/csv')).body;
    const table = await loadDataset(app.deps, datasetRef(app.deps.config, training));
    const values = table.values.map((r) => r[0] as number);
    const predicted = await ensureFeature(app.deps, { title: 'logS (mean)', type: 'numeric', source: app.url + '/algorithm/mean' });
    model = await createModel(app.deps, {
      title: 'mean of logS', creator: 'test', algorithm: app.url + '/algorithm/mean', trainingDataset: training,
      independentVariables: [], dependentVariables: [table.features[0]!.uri], predictedVariables: [predicted],
      parameters: [{ name: 'center', value: 'mean' }], kind: 'test-mean', data: { mean: values.reduce((a, b) => a + b, 0) / values.length },
    });
  });
  after(async () => { await app.close(); });

  it('lists and describes the model', async () => {
    expect(await lines(app.url + '/model')).to.deep.equal([model]);
    const nt = await (await fetch(model, { headers: { Accept: 'application/n-triples' } })).text();
    for (const p of ['#Model>', '#algorithm>', '#trainingDataset>', '#dependentVariables>', '#predictedVariables>', '#parameters>', '/title>', '/date>', '/creator>']) expect(nt, p).to.contain(p);
  });

  it('predicts a dataset as a task whose result is a dataset of predictions', async () => {
    const res = await fetch(model, { method: 'POST', headers: { Accept: 'text/uri-list' }, body: new URLSearchParams({ dataset_uri: training }) });
    expect(res.status).to.equal(202);
    const done = await followTask((await res.text()).trim());
    expect(done.status, done.body).to.equal(200);
    const csv = await lines(done.body, 'text/csv');
    expect(csv[0]).to.equal('Compound,SMILES,logS (mean)');
    expect(csv.slice(1).map((l) => l.split(',').pop())).to.deep.equal(['2', '2', '2']);
  });

  it('takes its predictors from its own deps: another app in the same process does not know test-mean', async () => {
    const other = await startApp();
    try {
      const data = (await uploadDataset(other, 'SMILES,logS\nCCO,1\n', 'text/csv')).body;
      const table = await loadDataset(other.deps, datasetRef(other.deps.config, data));
      const predicted = await ensureFeature(other.deps, { title: 'logS (mean)', type: 'numeric', source: other.url + '/algorithm/mean' });
      const elsewhere = await createModel(other.deps, {
        title: 'mean of logS', algorithm: other.url + '/algorithm/mean', trainingDataset: data,
        independentVariables: [], dependentVariables: [table.features[0]!.uri], predictedVariables: [predicted], kind: 'test-mean', data: { mean: 1 },
      });
      const res = await fetch(elsewhere, { method: 'POST', headers: { Accept: 'text/uri-list' }, body: new URLSearchParams({ dataset_uri: data }) });
      expect(res.status).to.equal(202);
      const task = (await res.text()).trim();
      expect((await followTask(task)).status).to.equal(500);
      const report = await (await fetch(task, { headers: { Accept: 'application/n-triples' } })).text();
      expect(report).to.contain('no predictor is registered for models of kind \\"test-mean\\"');
    } finally {
      await other.close();
    }
  });

  const bad: Array<[string, Record<string, string>, number, string]> = [
    ['no dataset_uri', {}, 400, 'MissingParameter'],
    ['a dataset_uri that is not a URI', { dataset_uri: 'not a uri' }, 400, 'InvalidIRI'],
  ];
  for (const [what, form, status, code] of bad) {
    it(`answers ${status} ${code} for ${what}`, async () => {
      const res = await fetch(model, { method: 'POST', body: new URLSearchParams(form) });
      expect(res.status).to.equal(status);
      expect(await res.text()).to.contain(code);
    });
  }

  it('deletes the model', async () => {
    expect((await fetch(model, { method: 'DELETE' })).status).to.equal(200);
    expect((await fetch(model)).status).to.equal(404);
  });
});
