import { expect } from 'chai';
import { DataFactory } from 'n3';
import { startApp, type TestApp } from '../helpers/app.ts';
import { defineTestJobs, startJobApp } from '../helpers/testJobs.ts';
import { sleep, turtle, uriList, waitForStatus } from '../helpers/tasks.ts';
import { DC, ERR, OT, RDF, XSD } from '../../src/rdf/vocab.ts';
import type { TaskInfo } from '../../src/tasks/api.ts';
import { storeDump } from '../helpers/store.ts';
import { until } from '../helpers/until.ts';

const { literal, namedNode } = DataFactory;
const URI_LIST = { Accept: 'text/uri-list' };

describe('GET and DELETE /task (SPEC §4.3)', () => {
  let app: TestApp;
  let jobs: Awaited<ReturnType<typeof startJobApp>>;
  let discarded: Array<{ result?: string }>;
  const submit = (kind: string, params: object = {}) =>
    app.deps.tasks.submit(kind, params, { title: `test ${kind}`, creator: `${app.url}/algorithm/test`, subjectid: 'SECRET-TOKEN' });

  before(async () => {
    app = await startApp({ workers: 1 });
    discarded = defineTestJobs(app.deps.tasks).discarded;
    jobs = await startJobApp(app.deps);
  });
  after(async () => {
    await jobs.close();
    await app.close();
  });

  it('a resource starting a job answers 202, Location and the task URI (uri-list)', async () => {
    const res = await fetch(`${jobs.url}/start/test-slow`, { method: 'POST', body: JSON.stringify({ ms: 300 }), headers: URI_LIST });
    expect(res.status).to.equal(202);
    const location = res.headers.get('location')!;
    expect(location).to.match(new RegExp(`^${app.url}/task/[0-9a-f-]{36}$`));
    expect(res.headers.get('content-type')).to.match(/^text\/uri-list/);
    expect(uriList(await res.text())).to.deep.equal([location]);
    await waitForStatus(app.deps.tasks, location, ['Completed']);
  });

  it('... and the task object as RDF/XML by default', async () => {
    const res = await fetch(`${jobs.url}/start/test-slow`, { method: 'POST', body: JSON.stringify({ ms: 300 }) });
    expect(res.status).to.equal(202);
    expect(res.headers.get('content-type')).to.match(/^application\/rdf\+xml/);
    const body = await res.text();
    expect(body).to.contain('ot:Task').and.to.match(/ot:hasStatus>(Queued|Running)</);
    expect(body).to.contain(res.headers.get('location'));
  });

  it('a completed task answers 200 with its result URI and the full task in RDF', async () => {
    const t = await submit('test-noop', { result: 'http://example.org/model/7' });
    await waitForStatus(app.deps.tasks, t.uri, ['Completed']);
    const list = await fetch(t.uri, { headers: URI_LIST });
    expect(list.status).to.equal(200);
    expect(uriList(await list.text())).to.deep.equal(['http://example.org/model/7']);
    const rdf = await fetch(t.uri, { headers: { Accept: 'text/turtle' } });
    expect(rdf.status).to.equal(200);
    const g = turtle(await rdf.text());
    expect(g.has(t.uri, RDF.type, OT.Task)).to.equal(true);
    expect(g.has(t.uri, OT.resultURI, literal('http://example.org/model/7', XSD.anyURI))).to.equal(true);
    expect(g.has(t.uri, OT.hasStatus, literal('Completed'))).to.equal(true);
    expect(Number(g.value(t.uri, OT.percentageCompleted))).to.equal(100);
    expect(g.has(t.uri, DC.creator, literal(`${app.url}/algorithm/test`, XSD.anyURI))).to.equal(true);
    expect(g.value(t.uri, DC.date)).to.match(/^\d{4}-\d\d-\d\dT/);
    expect(g.value(t.uri, DC.title)).to.equal('test test-noop');
  });

  it('never serves the engine\'s private fields nor stores the token', async () => {
    const t = await submit('test-noop', { result: 'http://example.org/x', nested: { subjectid: 'SECRET-TOKEN' } });
    await waitForStatus(app.deps.tasks, t.uri, ['Completed']);
    const body = await (await fetch(t.uri, { headers: { Accept: 'application/n-triples' } })).text();
    expect(body).not.to.contain('urn:opentox-service');
    expect((await storeDump(app.deps.store))).not.to.contain('SECRET-TOKEN');
  });

  it('progress grows while a job runs (throttled writes)', async () => {
    const t = await submit('test-slow', { ms: 3000 });
    const seen: number[] = [];
    const until = Date.now() + 5000;
    while (seen.filter((p) => p > 0 && p < 100).length < 2 && Date.now() < until) {
      const body = await (await fetch(t.uri, { headers: { Accept: 'application/n-triples' } })).text();
      const pct = Number(/percentageCompleted> "([\d.]+)"/.exec(body)?.[1]);
      if (pct !== seen[seen.length - 1]) seen.push(pct);
      await sleep(100);
    }
    const partial = seen.filter((p) => p > 0 && p < 100);
    expect(partial.length, `percentages seen: ${seen}`).to.be.at.least(2);
    expect(partial[1]).to.be.greaterThan(partial[0]!);
    await app.deps.tasks.cancel(t.uri);
  });

  it('a failed job answers 500 with the task and its error report', async () => {
    const t = await submit('test-fail', { message: 'descriptor blew up' });
    await waitForStatus(app.deps.tasks, t.uri, ['Error']);
    const res = await fetch(t.uri, { headers: { Accept: 'text/turtle' } });
    expect(res.status).to.equal(500);
    const g = turtle(await res.text());
    const report = `${t.uri}#error`;
    expect(g.has(t.uri, OT.hasStatus, literal('Error'))).to.equal(true);
    expect(g.has(t.uri, OT.error, namedNode(report))).to.equal(true);
    expect(g.has(report, RDF.type, OT.ErrorReport)).to.equal(true);
    expect(g.value(report, OT.message)).to.equal('descriptor blew up');
    expect(g.has(report, OT.errorCode, ERR.TaskFailed)).to.equal(true);
    expect(g.value(report, OT.statusCode)).to.equal('500');
    expect(g.value(t.uri, OT.resultURI)).to.equal(undefined);
  });

  it('a job failing with an HTTP error keeps its status (400)', async () => {
    const t = await submit('test-fail', { status: 400, message: 'no such feature' });
    await waitForStatus(app.deps.tasks, t.uri, ['Error']);
    const res = await fetch(t.uri, { headers: URI_LIST });
    expect(res.status).to.equal(400);
    expect(uriList(await res.text())).to.deep.equal([t.uri]);
  });

  it('a job returning something other than a URI fails (500), never Completed', async () => {
    const t = await submit('test-bad-result');
    const done = await waitForStatus(app.deps.tasks, t.uri, ['Completed', 'Error']);
    expect(done.status).to.equal('Error');
    const res = await fetch(t.uri, { headers: { Accept: 'text/plain' } });
    expect(res.status).to.equal(500);
    expect(await res.text()).to.contain('invalid result URI');
  });

  it('a job resumed by another task answers 201 with that task', async () => {
    const t = await submit('test-resume', { ms: 3000 });
    await waitForStatus(app.deps.tasks, t.uri, ['Completed']);
    const res = await fetch(t.uri, { headers: URI_LIST });
    expect(res.status).to.equal(201);
    const [next] = uriList(await res.text());
    expect(next).to.match(new RegExp(`^${app.url}/task/`)).and.not.equal(t.uri);
    expect(res.headers.get('location')).to.equal(next);
    const g = turtle(await (await fetch(t.uri, { headers: { Accept: 'text/turtle' } })).text());
    expect(g.has(t.uri, OT.resultURI, literal(next!, XSD.anyURI))).to.equal(true);
    expect((await fetch(next!, { headers: URI_LIST })).status).to.equal(202);
    await app.deps.tasks.cancel(next!);
  });

  it('DELETE stops a running job: Cancelled (503), and no result written afterwards', async () => {
    const t = await submit('test-slow', { ms: 600 });
    await waitForStatus(app.deps.tasks, t.uri, ['Running']);
    const del = await fetch(t.uri, { method: 'DELETE', headers: URI_LIST });
    expect(del.status).to.equal(200);
    expect(uriList(await del.text())).to.deep.equal([t.uri]);
    await sleep(800);
    const res = await fetch(t.uri, { headers: { Accept: 'text/turtle' } });
    expect(res.status).to.equal(503);
    const g = turtle(await res.text());
    expect(g.has(t.uri, OT.hasStatus, literal('Cancelled'))).to.equal(true);
    expect(g.value(t.uri, OT.resultURI)).to.equal(undefined);
  });

  it('a cancelled task\'s holdings are discarded: at once while it waits, once its job stops while it runs, never once it completed', async () => {
    const held = (n: string) => `http://example.org/held/${n}`;
    // Earlier tests cancelled tasks too: only this test's count.
    const mine = () => discarded.map((p) => p.result ?? '').filter((r) => r.startsWith(held('')));
    const done = await submit('test-noop', { result: held('done') });
    await waitForStatus(app.deps.tasks, done.uri, ['Completed']);
    // Every slot taken by a slow job, so that one more waits.
    const slots = (app.deps.tasks as unknown as { concurrency: number }).concurrency;
    const running = await Promise.all(Array.from({ length: slots }, (_, i) => submit('test-slow', { ms: 20_000, result: held(`running-${i}`) })));
    const waiting = await submit('test-slow', { ms: 100, result: held('waiting') });
    await waitForStatus(app.deps.tasks, running[0]!.uri, ['Running']);
    expect((await app.deps.tasks.get(waiting.uri))?.status).to.equal('Queued');
    expect((await fetch(waiting.uri, { method: 'DELETE' })).status).to.equal(200);
    expect(mine()).to.deep.equal([held('waiting')]);
    for (const t of running) expect((await fetch(t.uri, { method: 'DELETE' })).status).to.equal(200);
    await until('the running jobs to stop', () => mine().length === slots + 1, 10_000);
    expect(mine().sort()).to.deep.equal([held('waiting'), ...running.map((_, i) => held(`running-${i}`))].sort());
  });

  it('DELETE of a worker job terminates its thread (the pool is free again)', async () => {
    const t = await submit('test-worker', { ms: 20_000 });
    await waitForStatus(app.deps.tasks, t.uri, ['Running']);
    await sleep(300);
    expect((await fetch(t.uri, { method: 'DELETE' })).status).to.equal(200);
    // One worker thread: a second worker job can only finish if the first was stopped.
    const started = Date.now();
    const doubled = await app.deps.tasks.runInWorker<number>(new URL('../helpers/workerJobs.ts', import.meta.url), 'double', { n: 21 });
    expect(doubled).to.equal(42);
    expect(Date.now() - started).to.be.lessThan(10_000);
    expect((await app.deps.tasks.get(t.uri))?.status).to.equal('Cancelled');
  });

  it('a worker job reports progress and completes; a throwing worker function fails the task', async () => {
    const t = await submit('test-worker', { ms: 1500 });
    await waitForStatus(app.deps.tasks, t.uri, ['Running']);
    const until = Date.now() + 5000;
    while (!(((await app.deps.tasks.get(t.uri))?.percentageCompleted ?? 0) > 0) && Date.now() < until) await sleep(50);
    expect((await app.deps.tasks.get(t.uri))?.percentageCompleted).to.be.greaterThan(0).and.lessThan(100);
    const done = await waitForStatus(app.deps.tasks, t.uri, ['Completed', 'Error']);
    expect(done.status).to.equal('Completed');
    expect(done.resultUris).to.deep.equal(['http://example.org/result/worker']);
    let err: Error | undefined;
    await app.deps.tasks.runInWorker(new URL('../helpers/workerJobs.ts', import.meta.url), 'throws', { message: 'bad input 7' }).catch((e) => (err = e));
    expect(err?.message).to.equal('bad input 7');
  });

  it('DELETE of a finished task changes nothing (200)', async () => {
    const t = await submit('test-noop', { result: 'http://example.org/r' });
    await waitForStatus(app.deps.tasks, t.uri, ['Completed']);
    expect((await fetch(t.uri, { method: 'DELETE' })).status).to.equal(200);
    const res = await fetch(t.uri, { headers: URI_LIST });
    expect(res.status).to.equal(200);
    expect(uriList(await res.text())).to.deep.equal(['http://example.org/r']);
  });

  const bad: Array<[string, string, number, RegExp]> = [
    ['GET', '/task/0190c1a2-1111-7222-8333-444455556666', 404, /TaskNotFound/],
    ['DELETE', '/task/0190c1a2-1111-7222-8333-444455556666', 404, /TaskNotFound/],
    ['GET', '/task/not-a-task', 400, /InvalidTaskId/],
    ['DELETE', '/task/42', 400, /InvalidTaskId/],
    ['GET', '/task?query=Finished', 400, /InvalidParameter.*Finished/],
    ['GET', '/task?pagesize=0', 400, /pagesize/],
    ['GET', '/task?page=-1', 400, /page/],
  ];
  for (const [method, path, status, text] of bad) {
    it(`${method} ${path} answers ${status}`, async () => {
      const res = await fetch(app.url + path, { method, headers: { Accept: 'text/plain' } });
      expect(res.status).to.equal(status);
      expect(await res.text()).to.match(text);
    });
  }

  describe('listing', () => {
    let done: TaskInfo;
    let running: TaskInfo;
    before(async () => {
      done = await submit('test-noop', {});
      running = await submit('test-slow', { ms: 5000 });
      await waitForStatus(app.deps.tasks, done.uri, ['Completed']);
      await waitForStatus(app.deps.tasks, running.uri, ['Running']);
    });
    after(async () => { await app.deps.tasks.cancel(running.uri); });

    it('GET /task lists every task (uri-list), oldest first', async () => {
      const res = await fetch(app.url + '/task', { headers: URI_LIST });
      expect(res.status).to.equal(200);
      const uris = uriList(await res.text());
      expect(uris).to.include(done.uri).and.to.include(running.uri);
      expect(uris.indexOf(done.uri)).to.be.lessThan(uris.indexOf(running.uri));
    });

    it('GET /task/ (trailing slash) is the same list; HEAD /task/{id} answers the status alone', async () => {
      const res = await fetch(app.url + '/task/', { headers: URI_LIST });
      expect(res.status).to.equal(200);
      expect(uriList(await res.text())).to.include(running.uri);
      const head = await fetch(running.uri, { method: 'HEAD' });
      expect(head.status).to.equal(202);
      expect(await head.text()).to.equal('');
    });

    it('?query= filters by status, case-insensitively', async () => {
      const runningList = uriList(await (await fetch(app.url + '/task?query=running', { headers: URI_LIST })).text());
      expect(runningList).to.include(running.uri).and.not.to.include(done.uri);
      const completed = uriList(await (await fetch(app.url + '/task?query=Completed', { headers: URI_LIST })).text());
      expect(completed).to.include(done.uri).and.not.to.include(running.uri);
    });

    it('answers RDF/XML by default, with every task', async () => {
      const res = await fetch(app.url + '/task?query=Running');
      expect(res.headers.get('content-type')).to.match(/^application\/rdf\+xml/);
      const body = await res.text();
      expect(body).to.contain(running.uri).and.not.to.contain('urn:opentox-service');
    });

    it('pages with page/pagesize and says when more follow', async () => {
      const first = await fetch(app.url + '/task?pagesize=1', { headers: URI_LIST });
      expect(uriList(await first.text())).to.have.length(1);
      expect(first.headers.get('link')).to.match(/<http:[^>]*\/task\?pagesize=1&page=1>; rel="next"/);
      const all = uriList(await (await fetch(app.url + '/task', { headers: URI_LIST })).text());
      const last = await fetch(`${app.url}/task?pagesize=1&page=${all.length - 1}`, { headers: URI_LIST });
      expect(uriList(await last.text())).to.deep.equal([all[all.length - 1]]);
      expect(last.headers.get('link')).not.to.contain('rel="next"');
    });
  });
});
