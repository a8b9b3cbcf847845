// A job that fails leaves nothing behind (no result dataset that nothing points to, no
// half-written upload), so the lists read the same before and after.
import { expect } from 'chai';
import { closedPort } from '../helpers/closedPort.ts';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { startApp, type TestApp } from '../helpers/app.ts';
import { followTask, lines, uploadDataset } from '../helpers/datasets.ts';
import { createModel } from '../../src/models/models.ts';
import type { Predictor } from '../../src/models/predictors.ts';
import { ensureFeature } from '../../src/features/features.ts';

const predictor: Predictor = async ({ dataset }) => ({ values: dataset.compounds.map(() => [1]) });

describe('a failed job leaves nothing behind', function () {
  this.timeout(120_000);
  let app: TestApp;
  let dataset: string;
  let unreachable: string;
  before(async () => {
    // The dead dataset service is a loopback peer the operator listed (REMOTE_ORIGINS).
    const port = await closedPort();
    app = await startApp({ remoteOrigins: [`http://127.0.0.1:${port}`] });
    app.deps.predictors.set('test-one', predictor);
    dataset = (await uploadDataset(app, 'SMILES,a\nCCO,1\nCCCO,2\nc1ccccc1O,3\n', 'text/csv')).body;
    unreachable = `http://127.0.0.1:${port}/dataset`;
  });
  after(async () => { await app.close(); });

  const run = async (url: string, form: Record<string, string>) => {
    const res = await fetch(url, { method: 'POST', headers: { Accept: 'text/uri-list' }, body: new URLSearchParams(form) });
    const text = (await res.text()).trim();
    expect(res.status, text).to.equal(202);
    return followTask(text);
  };

  it('a descriptor run whose dataset_service does not answer ends in 502 and adds no dataset', async () => {
    const before = await lines(app.url + '/dataset');
    const done = await run(app.url + '/algorithm/physchem', { dataset_uri: dataset, dataset_service: unreachable });
    expect(done.status, done.body).to.equal(502);
    expect(await lines(app.url + '/dataset')).to.deep.equal(before);
  });

  it('a prediction whose dataset_service does not answer ends in 502 and adds no dataset', async () => {
    const features = await lines(dataset + '/features');
    const predicted = await ensureFeature(app.deps, { title: 'a (one)', type: 'numeric', source: app.url + '/algorithm/one' });
    const model = await createModel(app.deps, {
      title: 'one', creator: 'test', algorithm: app.url + '/algorithm/one', trainingDataset: dataset,
      independentVariables: [], dependentVariables: [features[0]!], predictedVariables: [predicted], parameters: [], kind: 'test-one', data: {},
    });
    const before = await lines(app.url + '/dataset');
    const done = await run(model, { dataset_uri: dataset, dataset_service: unreachable });
    expect(done.status, done.body).to.equal(502);
    expect(await lines(app.url + '/dataset')).to.deep.equal(before);
  });

  it('a large upload that fails in its task keeps neither its dataset graph nor its saved body', async () => {
    const rows = Array.from({ length: 2000 }, (_, i) => `<http://example.org/c${i}> <http://purl.org/dc/elements/1.1/title> "compound number ${i}" .`);
    const body = rows.join('\n') + '\n<http://example.org/broken> <http://example.org/p "unterminated .\n';
    expect(body.length).to.be.above(64 * 1024);
    const graphs = async () => [...new Set((await app.deps.store.match(null, null, null, null)).map((q) => q.graph.value))].filter((g) => !g.includes('/task/')).sort();
    const before = await graphs();
    const done = await uploadDataset(app, body, 'application/n-triples');
    expect(done.status).to.equal(400);
    expect(await graphs()).to.deep.equal(before);
    expect(readdirSync(path.join(app.dataDir, 'uploads'))).to.deep.equal([]);
  });
});
