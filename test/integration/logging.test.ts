// The log: one JSON line per request (method, URL, status, time) and per task start, end
// and error, at LOG_LEVEL, with no token, password or URI user-info in it.
import { expect } from 'chai';
import net from 'node:net';
import { startApp, type TestApp } from '../helpers/app.ts';
import { defineTestJobs } from '../helpers/testJobs.ts';
import { loadConfig } from '../../src/config.ts';
import { loggedUrl } from '../../src/http/accessLog.ts';

const TOKEN = 'AQIC5wM2LY4SfcxsecretTOKENvalue';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The log lines logged so far whose msg is `msg`, waiting a little for 'close' events. */
async function linesOf(app: TestApp, msg: string, count = 1): Promise<Array<Record<string, unknown>>> {
  for (let i = 0; i < 50; i++) {
    const found = app.logged.filter((l) => l.msg === msg);
    if (found.length >= count) return found;
    await sleep(20);
  }
  return app.logged.filter((l) => l.msg === msg);
}

describe('logging', function () {
  this.timeout(60_000);

  describe('at LOG_LEVEL=info', () => {
    let app: TestApp;
    before(async () => {
      app = await startApp({ logLevel: 'info' });
      defineTestJobs(app.deps.tasks);
    });
    after(async () => { await app.close(); });

    it('logs each request as a JSON line: method, URL, status, time', async () => {
      app.logged.length = 0;
      await (await fetch(app.url + '/dataset?page=0', { headers: { Accept: 'text/uri-list' } })).text();
      await (await fetch(app.url + '/compound/999999')).text();
      const [ok, missing] = await linesOf(app, 'request', 2);
      expect(ok).to.include({ level: 'info', method: 'GET', url: '/dataset?page=0', status: 200 });
      expect(ok!.ms).to.be.a('number').and.at.least(0);
      expect(ok!.time).to.be.a('string').and.match(/^\d{4}-\d\d-\d\dT/);
      expect(missing).to.include({ method: 'GET', url: '/compound/999999', status: 404 });
    });

    it('logs the bytes of each answer, the ones from the representation cache included', async () => {
      app.logged.length = 0;
      const lengths: number[] = [];
      for (let i = 0; i < 3; i++) {
        // Not coded: fetch would hand back the decoded length.
        const res = await fetch(app.url + '/algorithm/knn', { headers: { Accept: 'application/rdf+xml', 'Accept-Encoding': 'identity' } });
        lengths.push((await res.arrayBuffer()).byteLength);
      }
      const lines = await linesOf(app, 'request', 3);
      expect(lines.map((l) => l.bytes)).to.deep.equal(lengths);
      expect(lengths[0]).to.be.greaterThan(1000);
    });

    it('logs a request whose client left before the answer as aborted, with no status (none was sent)', async () => {
      app.logged.length = 0;
      const { port } = new URL(app.url);
      // Half a body, then the client goes: the service is still reading it.
      await new Promise<void>((resolve, reject) => {
        const socket = net.connect(Number(port), '127.0.0.1', () => {
          socket.write('POST /compound HTTP/1.1\r\nHost: x\r\nContent-Type: chemical/x-daylight-smiles\r\nContent-Length: 100\r\n\r\nCCO');
          setTimeout(() => { socket.destroy(); resolve(); }, 100);
        });
        socket.on('error', reject);
      });
      const [line] = await linesOf(app, 'request');
      expect(line).to.include({ method: 'POST', url: '/compound', aborted: true });
      expect(line).to.not.have.property('status');
    });

    it('never logs tokens, passwords or user-info', async () => {
      app.logged.length = 0;
      const dataset = 'http://alice:s3cret@data.example.org/dataset/1';
      const url = `${app.url}/dataset?subjectid=${TOKEN}&dataset_uri=${encodeURIComponent(dataset)}`;
      await (await fetch(url, { headers: { subjectid: TOKEN, Authorization: `Bearer ${TOKEN}`, Accept: 'text/uri-list' } })).text();
      const [line] = await linesOf(app, 'request');
      expect(line!.url).to.equal('/dataset?subjectid=***&dataset_uri=http%3A%2F%2F***%40data.example.org%2Fdataset%2F1');
      const all = JSON.stringify(app.logged);
      expect(all).to.not.contain(TOKEN).and.not.contain('s3cret');
    });

    it('logs each task\'s start and end, and an error with its message redacted', async () => {
      app.logged.length = 0;
      const ok = await app.deps.tasks.submit('test-noop', {}, { title: 'noop', creator: app.url + '/algorithm/test' });
      await app.deps.tasks.settled(ok.uri, 10_000);
      const failed = await app.deps.tasks.submit('test-fail', { message: `cannot read http://bob:pw123@host/x?subjectid=${TOKEN}` }, { title: 'fail', creator: app.url + '/algorithm/test' });
      await app.deps.tasks.settled(failed.uri, 10_000);
      const started = await linesOf(app, 'task started', 2);
      expect(started.map((l) => [l.task, l.kind])).to.deep.equal([[ok.uri, 'test-noop'], [failed.uri, 'test-fail']]);
      const ended = await linesOf(app, 'task ended', 2);
      expect(ended[0]).to.include({ level: 'info', task: ok.uri, status: 'Completed' });
      expect(ended[0]!.ms).to.be.a('number');
      expect(ended[1]).to.include({ level: 'warn', task: failed.uri, status: 'Error' });
      const [error] = await linesOf(app, 'task failed unexpectedly');
      expect(error).to.include({ level: 'error', task: failed.uri });
      expect((error!.err as { message: string }).message).to.equal('cannot read http://***@host/x?subjectid=***');
      const all = JSON.stringify(app.logged);
      expect(all).to.not.contain('pw123').and.not.contain(TOKEN);
    });
  });

  describe('at the tests\' default level (warn)', () => {
    let app: TestApp;
    before(async () => { app = await startApp(); });
    after(async () => { await app.close(); });

    it('logs no request lines', async () => {
      await (await fetch(app.url + '/dataset', { headers: { Accept: 'text/uri-list' } })).text();
      await sleep(100);
      expect(app.logged.filter((l) => l.msg === 'request')).to.deep.equal([]);
    });
  });

  describe('LOG_LEVEL', () => {
    it('is info by default and takes the pino levels', () => {
      expect(loadConfig([], {}).logLevel).to.equal('info');
      expect(loadConfig([], { LOG_LEVEL: 'DEBUG' }).logLevel).to.equal('debug');
      expect(loadConfig(['--log-level', 'silent'], {}).logLevel).to.equal('silent');
      expect(() => loadConfig([], { LOG_LEVEL: 'loud' })).to.throw(/LOG_LEVEL: expected one of fatal, error, warn, info, debug, trace, silent/);
    });
  });

  describe('true/false options (TRUST_PROXY, DEBUG_ERRORS)', () => {
    it('read true and false in their usual spellings, default as documented, and refuse any other word', () => {
      expect(loadConfig([], {}).trustProxy).to.equal(false);
      expect(loadConfig([], { TRUST_PROXY: 'false' }).trustProxy).to.equal(false);
      expect(loadConfig([], { TRUST_PROXY: 'OFF' }).trustProxy).to.equal(false);
      expect(loadConfig([], { DEBUG_ERRORS: '0' }).debug).to.equal(false);
      expect(loadConfig(['--debug-errors', 'no'], {}).debug).to.equal(false);
      expect(loadConfig([], { TRUST_PROXY: 'yes' }).trustProxy).to.equal(true);
      expect(loadConfig(['--trust-proxy'], {}).trustProxy).to.equal(true);
      expect(loadConfig([], { DEBUG_ERRORS: '1' }).debug).to.equal(true);
      expect(() => loadConfig([], { DEBUG_ERRORS: 'flase' })).to.throw(/DEBUG_ERRORS: expected true or false .*got "flase"/);
      expect(() => loadConfig(['--trust-proxy', 'maybe'], {})).to.throw(/TRUST_PROXY: expected true or false/);
    });
  });

  it('loggedUrl keeps ordinary parameters and hides secret ones', () => {
    expect(loggedUrl('/compound?search=c1ccccc1&pagesize=10')).to.equal('/compound?search=c1ccccc1&pagesize=10');
    expect(loggedUrl('/x?password=hunter2&api_key=k')).to.equal('/x?password=***&api_key=***');
  });
});
