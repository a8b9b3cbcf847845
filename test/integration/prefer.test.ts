// Prefer (RFC 7240) on the POSTs that start jobs: wait=N answers the finished job as
// GET /task/{id} would (SPEC §4.3), respond-async always the task; Preference-Applied says which.
import { readFileSync } from 'node:fs';
import { closedPort } from '../helpers/closedPort.ts';
import { expect } from 'chai';
import { startApp, type TestApp } from '../helpers/app.ts';
import { sharedData } from '../helpers/data.ts';
import { followTask, lines } from '../helpers/datasets.ts';
import { parsePrefer } from '../../src/http/prefer.ts';

type Job = { name: string; target: () => string; type: string; body: () => string | URLSearchParams; result: RegExp };

describe('Prefer: wait and respond-async on job-starting POSTs (RFC 7240)', function () {
  this.timeout(300_000);
  let app: TestApp;
  let dataset: string;
  let activity: string;
  let model: string;
  let unreachable: string;
  // Over the inline upload size (64 KiB), so the upload runs as a task, yet quick: 120
  // kazius rows, each with a long note.
  const [header, ...rows] = readFileSync(sharedData('opentox-test', 'kazius.csv'), 'utf8').split('\n').slice(0, 121);
  const kazius = [`${header},note`, ...rows.map((r, i) => `${r},${'n'.repeat(600)}${i}`)].join('\n') + '\n';

  const post = (url: string, type: string, body: string | URLSearchParams, headers: Record<string, string> = {}) =>
    fetch(url, { method: 'POST', headers: { 'Content-Type': type, Accept: 'text/uri-list', ...headers }, body });
  const form = 'application/x-www-form-urlencoded';

  before(async () => {
    expect(kazius.length).to.be.above(64 * 1024);
    const port = await closedPort();
    app = await startApp({ remoteOrigins: [`http://127.0.0.1:${port}`] });
    unreachable = `http://127.0.0.1:${port}/dataset`;
    const res = await post(app.url + '/dataset', 'text/csv', 'SMILES,Activity\nCCO,1\nCCCO,0\nCCCCO,1\nc1ccccc1,0\nCC(=O)O,1\nCCN,0\n');
    dataset = (await res.text()).trim();
    activity = (await lines(`${dataset}/features`))[0]!;
    const built = await post(`${app.url}/algorithm/knn`, form, new URLSearchParams({ dataset_uri: dataset, prediction_feature: activity }));
    model = (await followTask((await built.text()).trim())).body;
    expect(model).to.match(/\/model\/\d+$/);
  });
  after(async () => { await app.close(); });

  const jobs: Job[] = [
    { name: 'an upload', target: () => app.url + '/dataset', type: 'text/csv', body: () => kazius, result: /\/dataset\/\d+$/ },
    { name: 'an algorithm apply (kNN)', target: () => `${app.url}/algorithm/knn`, type: form, body: () => new URLSearchParams({ dataset_uri: dataset, prediction_feature: activity }), result: /\/model\/\d+$/ },
    { name: 'a model prediction', target: () => model, type: form, body: () => new URLSearchParams({ dataset_uri: dataset }), result: /\/dataset\/\d+$/ },
    {
      name: 'a cross-validation', target: () => `${app.url}/validation/crossvalidation`, type: form,
      body: () => new URLSearchParams({ algorithm_uri: `${app.url}/algorithm/knn`, dataset_uri: dataset, prediction_feature: activity, num_folds: '2' }), result: /\/validation\/[^/]+$/,
    },
  ];

  for (const job of jobs) {
    it(`${job.name}: without Prefer 202 with the task; with wait=60 200 with the result, which dereferences`, async () => {
      const plain = await post(job.target(), job.type, job.body());
      const task = (await plain.text()).trim();
      expect(plain.status, task).to.equal(202);
      expect(plain.headers.get('preference-applied')).to.equal(null);
      expect(plain.headers.get('vary')).to.match(/\bPrefer\b/);
      await followTask(task);

      const waited = await post(job.target(), job.type, job.body(), { Prefer: 'wait=60' });
      const result = (await waited.text()).trim();
      expect(waited.status, result).to.equal(200);
      expect(waited.headers.get('content-type')).to.match(/^text\/uri-list/);
      expect(waited.headers.get('preference-applied')).to.equal('wait=60');
      expect(waited.headers.get('vary')).to.match(/\bPrefer\b/);
      expect(result).to.match(job.result);
      expect(result.startsWith(app.url)).to.equal(true);
      expect((await fetch(result, { headers: { Accept: 'text/uri-list' } })).status).to.equal(200);
    });
  }

  it('a wait over 60 s is capped, and Preference-Applied names the wait applied', async () => {
    const res = await post(app.url + '/dataset', 'text/csv', kazius, { Prefer: 'wait=3600' });
    expect(res.status, await res.text()).to.equal(200);
    expect(res.headers.get('preference-applied')).to.equal('wait=60');
  });

  it('wait=0 answers 202 with the task, as without Prefer', async () => {
    const res = await post(app.url + '/dataset', 'text/csv', kazius, { Prefer: 'wait=0' });
    const task = (await res.text()).trim();
    expect(res.status, task).to.equal(202);
    expect(res.headers.get('location')).to.equal(task);
    expect(res.headers.get('preference-applied')).to.equal('wait=0');
    expect((await followTask(task)).status).to.equal(200);
  });

  it('respond-async answers 202 with the task even for a job done within the request; the task then answers the result', async () => {
    const direct = await post(app.url + '/dataset', 'text/csv', 'SMILES,y\nCCO,1\n');
    expect(direct.status).to.equal(200);
    const res = await post(app.url + '/dataset', 'text/csv', 'SMILES,y\nCCO,1\n', { Prefer: 'respond-async' });
    const task = (await res.text()).trim();
    expect(res.status, task).to.equal(202);
    expect(task).to.match(new RegExp(`^${app.url}/task/`));
    expect(res.headers.get('location')).to.equal(task);
    expect(res.headers.get('preference-applied')).to.equal('respond-async');
    const done = await followTask(task);
    expect(done.status).to.equal(200);
    expect(done.body).to.match(/\/dataset\/\d+$/);
    expect(await lines(`${done.body}/compounds`)).to.have.length(1);
  });

  it('respond-async on a job run as a task answers 202 and says so', async () => {
    const res = await post(`${app.url}/algorithm/knn`, form, new URLSearchParams({ dataset_uri: dataset, prediction_feature: activity }), { Prefer: 'respond-async' });
    const task = (await res.text()).trim();
    expect(res.status, task).to.equal(202);
    expect(res.headers.get('preference-applied')).to.equal('respond-async');
    expect((await followTask(task)).body).to.match(/\/model\/\d+$/);
  });

  it('a job that fails within the wait answers as its failed task: the status and the error report', async () => {
    const res = await post(app.url + '/algorithm/physchem', form, new URLSearchParams({ dataset_uri: dataset, dataset_service: unreachable }), { Prefer: 'wait=30', Accept: 'text/turtle' });
    const body = await res.text();
    expect(res.status, body).to.equal(502);
    expect(res.headers.get('content-type')).to.match(/^text\/turtle/);
    expect(res.headers.get('preference-applied')).to.equal('wait=30');
    expect(body).to.match(/ErrorReport/);
    expect(body).to.match(/"Error"/);
  });

  it('GET /task/{id} ignores Prefer: it waits for no one', async () => {
    const res = await post(app.url + '/dataset', 'text/csv', kazius);
    const task = (await res.text()).trim();
    const got = await fetch(task, { headers: { Accept: 'text/uri-list', Prefer: 'wait=30' } });
    await got.text();
    expect(got.headers.get('preference-applied')).to.equal(null);
    await followTask(task);
  });
});

describe('parsePrefer (RFC 7240 §2)', () => {
  const table: Array<[string | undefined, { waitSeconds?: number; respondAsync: boolean }]> = [
    [undefined, { respondAsync: false }],
    ['wait=5', { waitSeconds: 5, respondAsync: false }],
    ['WAIT="7"', { waitSeconds: 7, respondAsync: false }],
    ['respond-async, wait=10', { waitSeconds: 10, respondAsync: true }],
    ['wait=100', { waitSeconds: 60, respondAsync: false }],
    ['wait=-1', { respondAsync: false }],
    ['wait=abc, handling=lenient', { respondAsync: false }],
    ['wait=3, wait=9', { waitSeconds: 3, respondAsync: false }],
    ['respond-async; foo=bar', { respondAsync: true }],
  ];
  for (const [field, expected] of table) {
    it(`${field ?? '(none)'}`, () => {
      const { since: _since, ...prefs } = parsePrefer(field, 0);
      expect(prefs).to.deep.equal(expected);
    });
  }
});
