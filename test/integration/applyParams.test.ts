// Parameters of the jobs that algorithms and models start (SPEC §1 rule 2, §2.1, §4.3):
// URIs as the interface writes them, checks made before a task exists, no secret echoed.
import { expect } from 'chai';
import { startApp, type TestApp } from '../helpers/app.ts';
import { followTask, lines, uploadDataset } from '../helpers/datasets.ts';
import { createModel } from '../../src/models/models.ts';
import type { Predictor } from '../../src/models/predictors.ts';
import { ensureFeature } from '../../src/features/features.ts';

const predictor: Predictor = async ({ dataset }) => ({ values: dataset.compounds.map(() => [1]) });

/** POSTs a form written by hand, as curl -d sends it (brackets left literal). */
const postRaw = (url: string, body: string, accept = 'text/uri-list') =>
  fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: accept }, body });

describe('job parameters', function () {
  this.timeout(120_000);
  let app: TestApp;
  let dataset: string;
  let features: string[];
  let model: string;
  before(async () => {
    // 127.0.0.1:9 plays a listed peer that is down, so requests to it fail as remote failures (502).
    app = await startApp({ remoteOrigins: ['http://127.0.0.1:9'] });
    app.deps.predictors.set('test-constant', predictor);
    dataset = (await uploadDataset(app, 'SMILES,a,b\nCCO,1,5\nCCCO,2,7\nCCCCO,3,6\n', 'text/csv')).body;
    features = await lines(dataset + '/features');
    const predicted = await ensureFeature(app.deps, { title: 'a (constant)', type: 'numeric', source: app.url + '/algorithm/constant' });
    model = await createModel(app.deps, {
      title: 'constant', creator: 'test', algorithm: app.url + '/algorithm/constant', trainingDataset: dataset,
      independentVariables: [], dependentVariables: [features[0]!], predictedVariables: [predicted], parameters: [], kind: 'test-constant', data: {},
    });
  });
  after(async () => { await app.close(); });

  const taskCount = async () => (await lines(app.url + '/task')).length;

  it('a GET of dataset_uri with literal feature_uris[] answers 200 (the premise)', async () => {
    const res = await fetch(`${dataset}?feature_uris[]=${features[1]}`, { headers: { Accept: 'text/csv' } });
    expect(res.status).to.equal(200);
    expect((await res.text()).split(/\r?\n/)[0]).to.equal('Compound,SMILES,b');
  });

  it('POST /algorithm/{id} accepts dataset_uri with literal brackets and keeps the restriction', async () => {
    const res = await postRaw(app.url + '/algorithm/fs-variance', `dataset_uri=${dataset}?feature_uris[]=${features[1]}&threshold=0`);
    const body = (await res.text()).trim();
    expect(res.status, body).to.equal(202);
    const done = await followTask(body);
    expect(done.status, done.body).to.equal(200);
  });

  it('POST /algorithm/preprocessing/featureselection accepts dataset_uri with literal brackets', async () => {
    const res = await postRaw(`${app.url}/algorithm/preprocessing/featureselection/fs-variance`, `dataset_uri=${dataset}?feature_uris[]=${features[1]}&threshold=0`);
    expect(res.status).to.equal(200);
    expect((await res.text()).trim().split(/\r?\n/)).to.deep.equal([features[1]]);
  });

  it('POST /model/{id} accepts dataset_uri with literal brackets', async () => {
    const res = await postRaw(model, `dataset_uri=${dataset}?feature_uris[]=${features[0]}`);
    const body = (await res.text()).trim();
    expect(res.status, body).to.equal(202);
    const done = await followTask(body);
    expect(done.status, done.body).to.equal(200);
    expect(await lines(done.body, 'text/csv')).to.have.length(4);
  });

  const refused: Array<[string, () => string, string]> = [
    ['a file: dataset_uri', () => 'file:///etc/passwd', 'InvalidIRI'],
    ['a dataset_uri of this service that does not exist', () => app.url + '/dataset/999', 'InvalidParameter'],
    ['a compound_uri of this service that does not exist', () => app.url + '/compound/999', 'InvalidParameter'],
  ];
  for (const [what, value, code] of refused) {
    it(`POST /model/{id} answers 400 ${code} for ${what}, before any task exists`, async () => {
      const before = await taskCount();
      const name = what.includes('compound') ? 'compound_uri' : 'dataset_uri';
      const res = await fetch(model, { method: 'POST', body: new URLSearchParams({ [name]: value() }) });
      expect(res.status).to.equal(400);
      expect(await res.text()).to.contain(code);
      expect(await taskCount()).to.equal(before);
    });
  }

  it('POST /algorithm/{id} answers 400 InvalidIRI for a file: dataset_uri, before any task exists', async () => {
    const before = await taskCount();
    const res = await fetch(app.url + '/algorithm/physchem', { method: 'POST', body: new URLSearchParams({ dataset_uri: 'file:///etc/passwd' }) });
    expect(res.status).to.equal(400);
    expect(await res.text()).to.contain('InvalidIRI');
    expect(await taskCount()).to.equal(before);
  });

  it('POST /algorithm/{id} answers 400 InvalidIRI for a dataset_service that is not http(s), before any task exists', async () => {
    const before = await taskCount();
    const res = await fetch(app.url + '/algorithm/physchem', { method: 'POST', body: new URLSearchParams({ dataset_uri: dataset, dataset_service: 'ftp://example.org/dataset' }) });
    expect(res.status).to.equal(400);
    expect(await res.text()).to.contain('dataset_service');
    expect(await taskCount()).to.equal(before);
  });

  it('POST /model/{id} with a deleted dataset answers 400 before any task exists', async () => {
    const gone = (await uploadDataset(app, 'SMILES,a\nCCO,1\n', 'text/csv')).body;
    expect((await fetch(gone, { method: 'DELETE' })).status).to.equal(200);
    const before = await taskCount();
    const res = await fetch(model, { method: 'POST', body: new URLSearchParams({ dataset_uri: gone }) });
    expect(res.status).to.equal(400);
    expect(await taskCount()).to.equal(before);
  });

  it('user-info and subjectid of a dataset_uri are masked in the task, the task list and the report', async () => {
    const secret = 'http://alice:s3cret@127.0.0.1:9/dataset/1?subjectid=AQICtoken12345';
    const res = await fetch(app.url + '/algorithm/physchem', { method: 'POST', headers: { Accept: 'text/uri-list' }, body: new URLSearchParams({ dataset_uri: secret }) });
    // The job fails at once (nothing listens on port 9): within the sync window the POST
    // answers its error itself, else 202 and the task ends with it (SPEC §4.3).
    const body = (await res.text()).trim();
    const urls = [app.url + '/task'];
    if (res.status === 202) {
      urls.push(body);
      expect((await followTask(body)).status).to.be.within(400, 599);
    } else {
      expect(res.status).to.be.within(400, 599);
      expect(body).to.not.contain('s3cret').and.not.contain('AQICtoken12345');
    }
    for (const url of urls) {
      const text = await (await fetch(url, { headers: { Accept: 'text/turtle' } })).text();
      expect(text, url).to.contain('Apply').and.not.contain('s3cret').and.not.contain('AQICtoken12345');
    }
    expect(JSON.stringify(app.logged)).to.not.contain('s3cret').and.not.contain('AQICtoken12345');
  });

  it('a subjectid in dataset_uri is masked in the result dataset\'s title', async () => {
    const res = await fetch(app.url + '/algorithm/physchem', { method: 'POST', headers: { Accept: 'text/uri-list' }, body: new URLSearchParams({ dataset_uri: `${dataset}?subjectid=AQICtoken12345`, MW: 'true' }) });
    expect(res.status).to.equal(202);
    const done = await followTask((await res.text()).trim());
    expect(done.status, done.body).to.equal(200);
    const meta = await (await fetch(done.body + '/metadata', { headers: { Accept: 'text/turtle' } })).text();
    expect(meta).to.contain(dataset).and.not.contain('AQICtoken12345');
  });

  it('a request that fails on a dataset_uri with user-info and subjectid logs neither', async () => {
    const secret = 'http://alice:s3cret@127.0.0.1:9/dataset/1?subjectid=AQICtoken12345';
    const res = await fetch(`${app.url}/algorithm/preprocessing/featureselection/fs-variance`, { method: 'POST', body: new URLSearchParams({ dataset_uri: secret, threshold: '0' }) });
    expect(res.status).to.equal(502);
    expect(await res.text()).to.not.contain('s3cret');
    const logged = JSON.stringify(app.logged);
    expect(logged).to.contain('127.0.0.1:9').and.not.contain('s3cret').and.not.contain('AQICtoken12345');
  });
});
