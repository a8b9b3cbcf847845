// Every request the service makes to another service passes one policy (src/http/outbound):
// loopback listeners this test starts play the internal services an attacker would aim at.
// Nothing here leaves 127.0.0.1.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createConnection, createServer as createTcpServer } from 'node:net';
import { gzipSync } from 'node:zlib';
import { expect } from 'chai';
import fc from 'fast-check';
import { startApp, type TestApp } from '../helpers/app.ts';
import { followTask, lines, uploadDataset } from '../helpers/datasets.ts';
import { turtle } from '../helpers/tasks.ts';
import { startRecorder, type Recorder } from '../helpers/recorder.ts';
import { fetchRemote } from '../../src/http/remote.ts';
import { HttpError } from '../../src/errors.ts';
import { loadConfig } from '../../src/config.ts';
import { ERR, OT } from '../../src/rdf/vocab.ts';

const post = (url: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(url, { method: 'POST', headers: { Accept: 'text/plain', ...headers }, body: new URLSearchParams(fields) });

async function taskCount(app: TestApp): Promise<number> {
  const res = await fetch(app.url + '/task', { headers: { Accept: 'text/uri-list' } });
  return (await res.text()).split('\n').filter(Boolean).length;
}

/** The status, code and message of a failed task's error report (SPEC §3). */
async function taskError(task: string): Promise<{ status: number; code?: string; message?: string }> {
  await followTask(task);
  const res = await fetch(task, { headers: { Accept: 'text/turtle' } });
  const g = turtle(await res.text());
  return { status: res.status, code: g.value(`${task}#error`, OT.errorCode), message: g.value(`${task}#error`, OT.message) };
}

async function failure(p: Promise<unknown>): Promise<HttpError> {
  const err = await p.then(() => undefined, (e: unknown) => e);
  expect(err).to.be.instanceOf(HttpError);
  return err as HttpError;
}

describe('outbound requests: what a client names is checked before it is called', () => {
  let app: TestApp;
  let internal: Recorder;
  let dataset: string;
  before(async () => {
    internal = await startRecorder((_req, res) => res.writeHead(200, { 'Content-Type': 'text/turtle' }).end('<http://x.org/s> <http://x.org/p> "root:x:0:0:root:/root:/bin/bash" .'));
    app = await startApp();
    const made = await uploadDataset(app, 'SMILES,a\nCCO,1\nCCCO,2\nc1ccccc1O,3\n', 'text/csv');
    dataset = made.body;
  });
  after(async () => {
    await app.close();
    await internal.close();
  });
  afterEach(() => { internal.seen.length = 0; });

  const port = () => new URL(internal.url).port;
  // The same loopback listener, written as an attacker would write it.
  const spellings: Array<[string, () => string]> = [
    ['dotted', () => `${internal.url}/secret`],
    ['decimal', () => `http://2130706433:${port()}/secret`],
    ['hex and octal parts', () => `http://0x7f.0.0.01:${port()}/secret`],
    ['short form', () => `http://127.1:${port()}/secret`],
    ['trailing dot', () => `http://127.0.0.1.:${port()}/secret`],
    ['IPv4-mapped IPv6', () => `http://[::ffff:127.0.0.1]:${port()}/secret`],
    ['user-info and a token', () => `http://alice:pw@127.0.0.1:${port()}/secret?subjectid=AQICsecrettoken123`],
    ['a host name', () => `http://localhost:${port()}/secret`],
  ];
  for (const [how, uri] of spellings) {
    it(`dataset_uri at a loopback address (${how}): 400 RemoteURIRefused before any task, nothing reaches it`, async () => {
      const before = await taskCount(app);
      const res = await post(app.url + '/algorithm/physchem', { dataset_uri: uri() });
      const text = await res.text();
      expect(res.status, text).to.equal(400);
      expect(res.headers.get('content-type')).to.match(/^text\/plain/);
      expect(text).to.match(/^400 RemoteURIRefused: dataset_uri http:\/\/\S+ is refused: .*loopback/);
      expect(text).to.contain('REMOTE_ORIGINS');
      expect(text).not.to.match(/alice:pw|secrettoken/);
      expect(await taskCount(app)).to.equal(before);
      expect(internal.seen).to.deep.equal([]);
    });
  }

  it('dataset_service at a private address: 400 before any task, nothing posted', async () => {
    const before = await taskCount(app);
    const res = await post(app.url + '/algorithm/physchem', { dataset_uri: dataset, dataset_service: internal.url + '/dataset' });
    expect(res.status).to.equal(400);
    expect(await res.text()).to.match(/^400 RemoteURIRefused: dataset_service /);
    expect(await taskCount(app)).to.equal(before);
    expect(internal.seen).to.deep.equal([]);
  });

  it('a link-local (cloud metadata) address and non-http schemes are refused', async () => {
    for (const uri of ['http://169.254.169.254/latest/meta-data/', 'http://[fe80::1]/x', 'http://100.64.0.1/x', 'http://[fd00::1]/', 'file:///etc/passwd', 'gopher://127.0.0.1:6379/_INFO']) {
      const res = await post(app.url + '/algorithm/physchem', { dataset_uri: uri });
      expect(res.status, uri).to.equal(400);
      expect(await res.text(), uri).to.match(/^400 (RemoteURIRefused|InvalidIRI): /);
    }
  });

  it('a model or a validation given a loopback dataset_uri, compound_uri or test set: 400 before any task', async () => {
    const [feature] = await lines(dataset + '/features');
    const built = await post(app.url + '/algorithm/knn', { dataset_uri: dataset, prediction_feature: feature! }, { Accept: 'text/uri-list' });
    const model = (await followTask((await built.text()).trim())).body;
    expect(model).to.match(/\/model\//);
    for (const field of ['dataset_uri', 'compound_uri', 'dataset_service']) {
      const before = await taskCount(app);
      const fields: Record<string, string> = field === 'dataset_service' ? { dataset_uri: dataset, dataset_service: internal.url } : { [field]: internal.url + '/x' };
      const res = await post(model, fields);
      expect(res.status, field).to.equal(400);
      expect(await res.text()).to.match(new RegExp(`^400 RemoteURIRefused: ${field} `));
      expect(await taskCount(app)).to.equal(before);
    }
    // Validations name their datasets too (test_dataset_uri, test_target_dataset_uri, dataset_uri).
    const validations: Array<[string, Record<string, string>, string]> = [
      ['test_set_validation', { model_uri: model, test_dataset_uri: internal.url + '/d' }, 'test_dataset_uri'],
      ['test_set_validation', { model_uri: model, test_dataset_uri: dataset, test_target_dataset_uri: internal.url + '/d' }, 'test_target_dataset_uri'],
      ['crossvalidation', { algorithm_uri: app.url + '/algorithm/knn', dataset_uri: internal.url + '/d', prediction_feature: feature! }, 'dataset_uri'],
    ];
    for (const [path, fields, name] of validations) {
      const before = await taskCount(app);
      const res = await post(`${app.url}/validation/${path}`, fields);
      expect(res.status, name).to.equal(400);
      expect(await res.text()).to.match(new RegExp(`^400 RemoteURIRefused: ${name} `));
      expect(await taskCount(app)).to.equal(before);
    }
    expect(internal.seen).to.deep.equal([]);
  });

  it('never reaches a Redis on a loopback port', async function () {
    if (spawnSync('redis-server', ['--version']).status !== 0) this.skip();
    const free = createTcpServer();
    await new Promise<void>((r) => free.listen(0, '127.0.0.1', () => r()));
    const redisPort = (free.address() as { port: number }).port;
    await new Promise((r) => free.close(r));
    const redis: ChildProcess = spawn('redis-server', ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    try {
      const connections = async (): Promise<number> => {
        for (let i = 0; ; i++) {
          try {
            const info = await new Promise<string>((resolve, reject) => {
              const s = createConnection(redisPort, '127.0.0.1', () => s.end('INFO stats\r\nQUIT\r\n'));
              let out = '';
              s.on('data', (d) => { out += d; });
              s.on('end', () => resolve(out));
              s.on('error', reject);
            });
            return Number(/total_connections_received:(\d+)/.exec(info)![1]);
          } catch (e) {
            if (i > 50) throw e;
            await new Promise((r) => setTimeout(r, 100));
          }
        }
      };
      const before = await connections();
      for (const uri of [`http://127.0.0.1:${redisPort}/`, `http://localhost:${redisPort}/`]) {
        const res = await post(app.url + '/algorithm/physchem', { dataset_uri: uri });
        expect(res.status).to.equal(400);
      }
      // Our own INFO is the one connection more: the service made none.
      expect(await connections()).to.equal(before + 1);
    } finally {
      redis.kill();
    }
  });
});

describe('outbound requests: redirects, credentials and limits', () => {
  const recorders: Recorder[] = [];
  const start = async (...args: Parameters<typeof startRecorder>) => {
    const r = await startRecorder(...args);
    recorders.push(r);
    return r;
  };
  after(async () => { for (const r of recorders) await r.close(); });
  const configWith = (overrides: Parameters<typeof loadConfig>[2]) => loadConfig([], {}, { baseUrl: 'http://127.0.0.1:1', ...overrides });

  it('a redirect from an allowed origin to a refused one fails the job with the same report; the target sees nothing', async () => {
    const target = await start();
    const allowed = await start((_req, res) => res.writeHead(302, { Location: `${target.url}/secret` }).end());
    const app = await startApp({ remoteOrigins: [allowed.url] });
    try {
      const res = await post(app.url + '/algorithm/physchem', { dataset_uri: allowed.url + '/dataset/1' }, { Accept: 'text/uri-list' });
      // A job that fails before the route answers is answered with its task's error at once
      // (SPEC §4.3): the body names the task either way.
      expect([202, 400], await res.clone().text()).to.include(res.status);
      const task = (await res.text()).trim();
      const { status, message, code } = await taskError(task);
      expect(status).to.equal(400);
      expect(code).to.equal(ERR.RemoteURIRefused.value);
      expect(message).to.match(new RegExp(`^a redirect from ${allowed.url}/dataset/1 to ${target.url}/secret is refused: 127\\.0\\.0\\.1 is a loopback`));
      expect(allowed.seen).to.have.length(1);
      expect(target.seen).to.deep.equal([]);
    } finally {
      await app.close();
    }
  });

  it('redirects that bounce between allowed origins and end at a refused address never reach it (fuzzed)', async () => {
    const target = await start();
    const tp = new URL(target.url).port;
    const plans = new Map<string, { hops: string[]; last: string; status: number }>();
    const bounce = (req: { url: string }, res: import('node:http').ServerResponse) => {
      const [, , id, step] = req.url.split('/');
      const plan = plans.get(id!)!;
      const i = Number(step);
      res.writeHead(plan.status, { Location: i + 1 < plan.hops.length ? `${plan.hops[i + 1]}/p/${id}/${i + 1}` : plan.last }).end();
    };
    const [a, b] = [await start(bounce), await start(bounce)];
    const config = configWith({ remoteOrigins: [a!.url, b!.url] });
    const spelled = [`127.0.0.1:${tp}`, `2130706433:${tp}`, `0x7f.1:${tp}`, `[::ffff:7f00:1]:${tp}`, `127.0.0.1.:${tp}`, `u:p@127.1:${tp}`, `localhost:${tp}`];
    let n = 0;
    await fc.assert(fc.asyncProperty(fc.array(fc.constantFrom(a!.url, b!.url), { minLength: 1, maxLength: 5 }), fc.constantFrom(...spelled), fc.constantFrom(301, 302, 303, 307, 308), async (hops, host, status) => {
      const id = String(++n);
      plans.set(id, { hops, last: `http://${host}/secret`, status });
      const err = await failure(fetchRemote(config, `${hops[0]}/p/${id}/0`, { subjectid: 'AQICtoken-1234', body: status >= 307 ? 'x' : undefined }));
      expect(err.status).to.equal(400);
      expect(err.code.value).to.equal(ERR.RemoteURIRefused.value);
      expect(target.seen).to.deep.equal([]);
    }), { numRuns: 40 });
  });

  it('a redirect to another origin carries no credentials, not even to a token origin', async () => {
    const second = await start((_req, res) => res.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok'));
    const first = await start((_req, res) => res.writeHead(307, { Location: `${second.url}/next?subjectid=AQICleaked12345` }).end());
    const config = configWith({ remoteOrigins: [first.url, second.url], tokenOrigins: [first.url, second.url] });
    const res = await fetchRemote(config, first.url + '/start', { subjectid: 'AQICtoken-of-bob-1', body: new URLSearchParams({ a: '1', subjectid: 'AQICtoken-of-bob-1' }) });
    expect(res.status).to.equal(200);
    expect(first.seen[0]!.headers.subjectid).to.equal('AQICtoken-of-bob-1');
    expect(new URLSearchParams(first.seen[0]!.body).get('subjectid')).to.equal('AQICtoken-of-bob-1');
    expect(second.seen).to.have.length(1);
    expect(second.seen[0]!.url).to.equal('/next');
    expect(second.seen[0]!.body).to.equal('a=1');
    expect(second.text()).not.to.match(/AQIC|authorization/i);
  });

  it('the token goes only to token origins, never as a query parameter', async () => {
    const other = await start((_req, res) => res.writeHead(200).end('x'));
    const config = configWith({ remoteOrigins: [other.url] });
    await fetchRemote(config, `${other.url}/c/1?subjectid=AQICfromtheuri1&x=1`, { subjectid: 'AQICtoken-of-bob-1', body: new URLSearchParams({ subjectid: 'AQICform-token1', y: '2' }) });
    expect(other.seen[0]!.url).to.equal('/c/1?x=1');
    expect(other.seen[0]!.body).to.equal('y=2');
    expect(other.text()).not.to.contain('AQIC');
  });

  it('follows at most 5 redirects', async () => {
    const loop = await start((req, res) => res.writeHead(302, { Location: `/hop/${Number(req.url.split('/')[2] ?? 0) + 1}` }).end());
    const err = await failure(fetchRemote(configWith({ remoteOrigins: [loop.url] }), loop.url + '/hop/0'));
    expect(err.status).to.equal(400);
    expect(err.code.value).to.equal(ERR.RemoteURIRefused.value);
    expect(err.message).to.match(/redirects more than 5 times/);
    expect(loop.seen.map((s) => s.url)).to.deep.equal(['/hop/0', '/hop/1', '/hop/2', '/hop/3', '/hop/4', '/hop/5']);
  });

  it('refuses an answer larger than BODY_LIMIT, compressed or not', async () => {
    const big = await start((req, res) => {
      if (req.url === '/gzip') res.writeHead(200, { 'Content-Type': 'text/turtle', 'Content-Encoding': 'gzip' }).end(gzipSync(Buffer.alloc(1_000_000, 32)));
      else res.writeHead(200, { 'Content-Type': 'text/turtle' }).end('#'.repeat(5000));
    });
    const config = configWith({ remoteOrigins: [big.url], bodyLimit: 4096 });
    for (const path of ['/plain', '/gzip']) {
      const err = await failure(fetchRemote(config, big.url + path));
      expect(err.status, path).to.equal(502);
      expect(err.causes[0]!.message).to.match(/more than 4096 bytes, the limit of BODY_LIMIT/);
    }
    expect((await fetchRemote(configWith({ remoteOrigins: [big.url] }), big.url + '/gzip')).body.length).to.equal(1_000_000);
  });

  it('an answer cut short is a 502, never a partial body', async () => {
    const cut = await start((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/turtle', 'Content-Length': '1000' });
      res.write('<http://x.org/s> <http://x.org/p> ');
      setTimeout(() => res.socket?.destroy(), 20);
    });
    const err = await failure(fetchRemote(configWith({ remoteOrigins: [cut.url] }), cut.url + '/d'));
    expect(err.status).to.equal(502);
    expect(err.code.value).to.equal(ERR.BadGateway.value);
  });

  it('a remote failure says its status and at most 200 characters of its text', async () => {
    const chatty = await start((_req, res) => res.writeHead(500, { 'Content-Type': 'text/plain' }).end('x'.repeat(5000)));
    const err = await failure(fetchRemote(configWith({ remoteOrigins: [chatty.url] }), chatty.url + '/d?subjectid=AQICsecret12345'));
    expect(err.status).to.equal(502);
    expect(err.message).to.equal(`GET ${chatty.url}/d answered 500`);
    expect(err.causes[0]!.status).to.equal(500);
    expect(JSON.stringify(err.causes).length).to.be.below(700);
  });

  it('counts the requests of one job: past REMOTE_MAX_FETCHES the task fails with 413', async () => {
    const compounds = await start((_req, res) => res.writeHead(200, { 'Content-Type': 'chemical/x-daylight-smiles' }).end('CCO\n'));
    const app = await startApp({ remoteOrigins: [compounds.url], remoteMaxFetches: 3 });
    try {
      const csv = 'compound,a\n' + [1, 2, 3, 4, 5].map((i) => `${compounds.url}/compound/${i},${i}`).join('\n') + '\n';
      const made = await uploadDataset(app, csv, 'text/csv');
      expect(made.status, made.body).to.equal(200);
      const res = await post(app.url + '/algorithm/physchem', { dataset_uri: made.body }, { Accept: 'text/uri-list' });
      const task = (await res.text()).trim();
      const { status, message, code } = await taskError(task);
      expect(status).to.equal(413);
      expect(code).to.equal(ERR.LimitExceeded.value);
      expect(message).to.match(/REMOTE_MAX_FETCHES/);
      expect(compounds.seen.length).to.be.at.most(3);
    } finally {
      await app.close();
    }
  });
});
