import { expect } from 'chai';
import { startApp, type TestApp } from '../helpers/app.ts';
import { defineTestJobs, startJobApp } from '../helpers/testJobs.ts';
import { sleep, uriList, waitForStatus } from '../helpers/tasks.ts';
import type { TaskInfo } from '../../src/tasks/api.ts';
import { Parser } from 'n3';
import { ERR, OT, RDF } from '../../src/rdf/vocab.ts';

const URI_LIST = { Accept: 'text/uri-list' };

describe('GET and DELETE /task (SPEC §4.3)', () => {
  let app: TestApp;
  let jobs: Awaited<ReturnType<typeof startJobApp>>;
  const submit = (kind: string, params: object = {}) =>
    app.deps.tasks.submit(kind, params, { title: `test ${kind}`, creator: `${app.url}/algorithm/test`, subjectid: 'SECRET-TOKEN' });

  before(async () => {
    app = await startApp({ workers: 1 });
    defineTestJobs(app.deps.tasks);
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
    const ttl = await rdf.text();
    expect(ttl).to.contain('ot:resultURI "http://example.org/model/7"^^xsd:anyURI');
    expect(ttl).to.contain('ot:hasStatus "Completed"');
    expect(ttl).to.match(/ot:percentageCompleted "100(\.0)?"\^\^xsd:float/);
    expect(ttl).to.contain(`dc:creator "${app.url}/algorithm/test"^^xsd:anyURI`);
    expect(ttl).to.match(/dc:date "\d{4}-\d\d-\d\dT[^"]+"\^\^xsd:dateTime/);
    expect(ttl).to.contain('dc:title "test test-noop"');
  });

  it('never serves the engine\'s private fields nor stores the token', async () => {
    const t = await submit('test-noop', { result: 'http://example.org/x' });
    await waitForStatus(app.deps.tasks, t.uri, ['Completed']);
    const body = await (await fetch(t.uri, { headers: { Accept: 'application/n-triples' } })).text();
    expect(body).not.to.contain('urn:opentox-service');
    expect(app.deps.store.dumpNQuads()).not.to.contain('SECRET-TOKEN');
  });

  it('progress grows while a job runs (throttled writes)', async () => {
    const t = await submit('test-slow', { ms: 1500 });
    await sleep(900);
    const body = await (await fetch(t.uri, { headers: { Accept: 'application/n-triples' } })).text();
    const pct = Number(/percentageCompleted> "([\d.]+)"/.exec(body)?.[1]);
    expect(pct).to.be.greaterThan(0).and.lessThan(100);
    await waitForStatus(app.deps.tasks, t.uri, ['Completed']);
  });

  it('a failed job answers 500 with the task and its error report', async () => {
    const t = await submit('test-fail', { message: 'descriptor blew up' });
    await waitForStatus(app.deps.tasks, t.uri, ['Error']);
    const res = await fetch(t.uri, { headers: { Accept: 'text/turtle' } });
    expect(res.status).to.equal(500);
    const ttl = await res.text();
    // Checked as triples, not as text: the Turtle writer may group and abbreviate freely.
    const triples = new Parser({ format: 'text/turtle' }).parse(ttl);
    const has = (s: string, p: string, o: string) => triples.some((q) => q.subject.value === s && q.predicate.value === p && q.object.value === o);
    const err = `${t.uri}#error`;
    expect(has(t.uri, OT.hasStatus.value, 'Error')).to.equal(true);
    expect(has(t.uri, OT.error.value, err)).to.equal(true);
    expect(has(err, RDF.type.value, OT.ErrorReport.value)).to.equal(true);
    expect(triples.some((q) => q.subject.value === err && q.predicate.value === OT.message.value && q.object.value.includes('descriptor blew up'))).to.equal(true);
    expect(has(err, OT.errorCode.value, ERR.TaskFailed.value)).to.equal(true);
    expect(has(err, OT.statusCode.value, '500')).to.equal(true);
    expect(ttl).not.to.contain('ot:resultURI');
  });

  it('a job failing with an HTTP error keeps its status (400)', async () => {
    const t = await submit('test-fail', { status: 400, message: 'no such feature' });
    await waitForStatus(app.deps.tasks, t.uri, ['Error']);
    const res = await fetch(t.uri, { headers: URI_LIST });
    expect(res.status).to.equal(400);
    expect(uriList(await res.text())).to.deep.equal([t.uri]);
  });

  it('a job resumed by another task answers 201 with that task', async () => {
    const t = await submit('test-resume', { ms: 3000 });
    await waitForStatus(app.deps.tasks, t.uri, ['Completed']);
    const res = await fetch(t.uri, { headers: URI_LIST });
    expect(res.status).to.equal(201);
    const [next] = uriList(await res.text());
    expect(next).to.match(new RegExp(`^${app.url}/task/`)).and.not.equal(t.uri);
    expect(res.headers.get('location')).to.equal(next);
    const rdf = await (await fetch(t.uri, { headers: { Accept: 'text/turtle' } })).text();
    expect(rdf).to.contain(`ot:resultURI "${next}"^^xsd:anyURI`);
    expect((await fetch(next, { headers: URI_LIST })).status).to.equal(202);
    await app.deps.tasks.cancel(next);
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
    const ttl = await res.text();
    expect(ttl).to.contain('ot:hasStatus "Cancelled"');
    expect(ttl).not.to.contain('resultURI');
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
    expect(app.deps.tasks.get(t.uri)?.status).to.equal('Cancelled');
  });

  it('a worker job reports progress and completes; a throwing worker function fails the task', async () => {
    const t = await submit('test-worker', { ms: 300 });
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
      expect(first.headers.get('link')).to.match(/^<http:[^>]*\/task\?pagesize=1&page=1>; rel="next"$/);
      const all = uriList(await (await fetch(app.url + '/task', { headers: URI_LIST })).text());
      const last = await fetch(`${app.url}/task?pagesize=1&page=${all.length - 1}`, { headers: URI_LIST });
      expect(uriList(await last.text())).to.deep.equal([all[all.length - 1]]);
      expect(last.headers.get('link')).to.equal(null);
    });
  });
});
