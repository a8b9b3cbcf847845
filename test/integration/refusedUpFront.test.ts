// Parameters bounded by the data are refused before a task exists (SPEC §4.3): num_folds
// above the compounds with a value of prediction_feature (or, stratified, the smallest
// class), split_ratio outside (0,1), k or the learners' folds above the training set. Each
// answers 400 with an ot:ErrorReport naming the parameter, the value and the limit; the
// values at the limit start a task.
import { expect } from 'chai';
import { startApp, type TestApp } from '../helpers/app.ts';
import { followTask, lines, uploadDataset } from '../helpers/datasets.ts';

// 12 compounds; `class` has 3 members of "a" and 9 of "b".
const CSV = ['SMILES,activity,class', ...[
  'CCO', 'CCCO', 'CCCCO', 'CCCCCO', 'CC(C)O', 'CC(C)CO', 'c1ccccc1', 'c1ccccc1O', 'c1ccccc1C', 'CC(=O)O', 'CCC(=O)O', 'CCN',
].map((s, i) => `${s},${(i * 0.7 + 1).toFixed(2)},${i < 3 ? 'a' : 'b'}`)].join('\n') + '\n';

/**
 * Jobs on 12 compounds may end before their POST is answered, which then answers the task's
 * final state (SPEC §4.3); these tests follow the task, so they ask for it (RFC 7240 respond-async).
 */
const AS_TASK = { Accept: 'text/uri-list', Prefer: 'respond-async' };

describe('parameters bounded by the data are refused up front', function () {
  this.timeout(300_000);
  let app: TestApp;
  let dataset: string;
  let activity: string;
  let klass: string;
  before(async () => {
    app = await startApp();
    const up = await uploadDataset(app, CSV, 'text/csv');
    expect(up.status, up.body).to.equal(200);
    dataset = up.body;
    const features = await lines(dataset + '/features');
    expect(features).to.have.length(2);
    [activity, klass] = [features[0]!, features[1]!];
  });
  after(async () => { await app.close(); });

  const tasks = async () => lines(app.url + '/task');
  const post = (path: string, fields: Record<string, string>) =>
    fetch(`${app.url}${path}`, { method: 'POST', headers: { Accept: 'text/plain' }, body: new URLSearchParams(fields) });
  const cv = (feature: () => string, extra: Record<string, string>) => () => ({ algorithm_uri: `${app.url}/algorithm/knn`, dataset_uri: dataset, prediction_feature: feature(), ...extra });
  const knn = (extra: Record<string, string>) => () => ({ dataset_uri: dataset, prediction_feature: activity, ...extra });

  const refused: Array<[string, string, () => Record<string, string>, RegExp]> = [
    ['num_folds=13 above 12 compounds', '/validation/crossvalidation', cv(() => activity, { num_folds: '13' }), /num_folds=13\b.*limit is 12\b.*compounds with a value/],
    ['num_folds=4 stratified above the smallest class of 3', '/validation/crossvalidation', cv(() => klass, { num_folds: '4' }), /num_folds=4\b.*limit is 3\b.*smallest class \("a"\)/],
    ['num_folds=4 stratified=true on the classes', '/validation/crossvalidation', cv(() => klass, { num_folds: '4', stratified: 'true' }), /num_folds=4\b.*limit is 3\b/],
    ['num_folds=13 unstratified on the classes', '/validation/crossvalidation', cv(() => klass, { num_folds: '13', stratified: 'false' }), /num_folds=13\b.*limit is 12\b/],
    ['split_ratio=0', '/validation/training_test_split', cv(() => activity, { split_ratio: '0' }), /split_ratio="0".*\(0,1\)/],
    ['split_ratio=1', '/validation/training_test_split', cv(() => activity, { split_ratio: '1' }), /split_ratio="1".*\(0,1\)/],
    ['split_ratio=1.5', '/validation/training_test_split', cv(() => activity, { split_ratio: '1.5' }), /split_ratio="1.5".*\(0,1\)/],
    ['split_ratio=-0.2', '/validation/training_test_split', cv(() => activity, { split_ratio: '-0.2' }), /split_ratio="-0.2".*\(0,1\)/],
    ['k=20 above a training set of 12', '/algorithm/knn', knn({ k: '20' }), /k=20\b.*limit is 12\b.*compounds with a value/],
    ['the learner\'s folds=13 above 12 compounds', '/algorithm/random-forest', knn({ folds: '13', trees: '5' }), /folds=13\b.*limit is 12\b/],
    ['the learner\'s folds=1, neither off (0) nor a cross-validation', '/algorithm/random-forest', knn({ folds: '1', trees: '5' }), /folds="1".*0 \(off\) or an integer in \[2,20\]/],
    ['the learner\'s folds=-1', '/algorithm/knn', knn({ folds: '-1' }), /folds="-1".*0 \(off\) or an integer in \[2,20\]/],
    ['the learner\'s folds=13 on the classes of 12 compounds', '/algorithm/knn', () => ({ dataset_uri: dataset, prediction_feature: klass, folds: '13' }), /folds=13\b.*limit is 12\b/],
  ];
  for (const [name, path, fields, message] of refused) {
    it(`400 before a task: ${name}`, async () => {
      const before = await tasks();
      const res = await post(path, fields());
      const text = await res.text();
      expect(res.status, text).to.equal(400);
      expect(res.headers.get('content-type')).to.match(/^text\/plain/);
      expect(text).to.match(message);
      expect(text).to.contain('InvalidParameter');
      expect(await tasks()).to.deep.equal(before);
    });
  }

  it('the report is an ot:ErrorReport in RDF', async () => {
    const res = await fetch(`${app.url}/validation/crossvalidation`, { method: 'POST', headers: { Accept: 'text/turtle' }, body: new URLSearchParams(cv(() => activity, { num_folds: '13' })()) });
    expect(res.status).to.equal(400);
    expect(res.headers.get('content-type')).to.match(/^text\/turtle/);
    const text = await res.text();
    expect(text).to.match(/ErrorReport/);
    expect(text).to.match(/num_folds=13.*limit is 12/);
  });

  const accepted: Array<[string, string, () => Record<string, string>]> = [
    ['num_folds=12 on 12 compounds', '/validation/crossvalidation', cv(() => activity, { num_folds: '12' })],
    ['num_folds=3 stratified on a class of 3', '/validation/crossvalidation', cv(() => klass, { num_folds: '3' })],
    ['split_ratio=0.5', '/validation/training_test_split', cv(() => activity, { split_ratio: '0.5' })],
    ['k=11', '/algorithm/knn', knn({ k: '11' })],
    ['k=12, the whole training set', '/algorithm/knn', knn({ k: '12' })],
    // The learner's own folds are bounded by the compounds, not the smallest class: the
    // model is the product, its cross-validated statistics a by-product.
    ['the learner\'s folds=4 on a class of 3', '/algorithm/knn', () => ({ dataset_uri: dataset, prediction_feature: klass, folds: '4' })],
  ];
  for (const [name, path, fields] of accepted) {
    it(`a task that completes: ${name}`, async () => {
      const before = (await tasks()).length;
      const res = await fetch(`${app.url}${path}`, { method: 'POST', headers: AS_TASK, body: new URLSearchParams(fields()) });
      const text = (await res.text()).trim();
      expect(res.status, text).to.equal(202);
      expect((await tasks()).length).to.equal(before + 1);
      const done = await followTask(text);
      expect(done.status, done.body).to.equal(200);
    });
  }

  it('folds=0 builds the model without its cross-validation; folds=2 with it', async () => {
    const model = async (folds: string) => {
      const res = await fetch(`${app.url}/algorithm/random-forest`, { method: 'POST', headers: AS_TASK, body: new URLSearchParams(knn({ folds, trees: '5' })()) });
      expect(res.status).to.equal(202);
      const done = await followTask((await res.text()).trim());
      expect(done.status, done.body).to.equal(200);
      const rdf = await fetch(done.body, { headers: { Accept: 'application/n-triples' } });
      expect(rdf.status).to.equal(200);
      return rdf.text();
    };
    const [off, on] = [await model('0'), await model('2')];
    expect(on).to.match(/#numFolds> "2"/);
    expect(off).to.not.match(/#numFolds>/);
    expect(off).to.match(/#paramValue> "0"/);
  });

  it('a default num_folds above the data is lowered, not refused', async () => {
    const res = await fetch(`${app.url}/validation/crossvalidation`, { method: 'POST', headers: AS_TASK, body: new URLSearchParams(cv(() => klass, {})()) });
    expect(res.status).to.equal(202);
    const done = await followTask((await res.text()).trim());
    expect(done.status, done.body).to.equal(200);
  });

  describe('a remote dataset, whose size is known only once fetched', () => {
    let peer: TestApp;
    let client: TestApp;
    let remote: string;
    let remoteActivity: string;
    before(async () => {
      peer = await startApp();
      remote = (await uploadDataset(peer, CSV, 'text/csv')).body;
      remoteActivity = (await lines(remote + '/features'))[0]!;
      client = await startApp({ remoteOrigins: [peer.url] });
    });
    after(async () => { await Promise.all([client?.close(), peer?.close()]); });

    const failedTask = async (path: string, fields: Record<string, string>) => {
      const res = await fetch(`${client.url}${path}`, { method: 'POST', headers: AS_TASK, body: new URLSearchParams(fields) });
      const text = (await res.text()).trim();
      expect(res.status, text).to.equal(202);
      await followTask(text);
      const report = await fetch(text, { headers: { Accept: 'text/turtle' } });
      return report.text();
    };

    it('num_folds above its compounds fails the job with the same report', async () => {
      const text = await failedTask('/validation/crossvalidation', { algorithm_uri: `${client.url}/algorithm/knn`, dataset_uri: remote, prediction_feature: remoteActivity, num_folds: '13' });
      expect(text).to.match(/Error/);
      expect(text).to.match(/num_folds=13\b.*limit is 12\b/);
      expect(text).to.match(/statusCode[^;.]*400/);
    });

    it('k above its compounds fails the job with the same report', async () => {
      const text = await failedTask('/algorithm/knn', { dataset_uri: remote, prediction_feature: remoteActivity, k: '20' });
      expect(text).to.match(/k=20\b.*limit is 12\b/);
      expect(text).to.match(/statusCode[^;.]*400/);
    });
  });
});
