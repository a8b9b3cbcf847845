import { expect } from 'chai';
import { startApp, type TestApp } from '../helpers/app.ts';
import { defineTestJobs, startJobApp } from '../helpers/testJobs.ts';
import { uriList, waitForStatus } from '../helpers/tasks.ts';

// SPEC §4.3 "Creating a task": a job done within the sync window answers 200 directly.
describe('creating a task with a sync window (SPEC §4.3)', () => {
  let app: TestApp;
  let jobs: Awaited<ReturnType<typeof startJobApp>>;
  const start = (kind: string, params: object, accept?: string) =>
    fetch(`${jobs.url}/start/${kind}`, { method: 'POST', body: JSON.stringify(params), headers: accept ? { Accept: accept } : {} });

  before(async () => {
    app = await startApp({ syncWindowMs: 400, taskConcurrency: 1, queueLength: 1 });
    defineTestJobs(app.deps.tasks);
    jobs = await startJobApp(app.deps);
  });
  after(async () => {
    await jobs.close();
    await app.close();
  });

  // [job, params, Accept, status, uri-list body ('task' = the task URI) or RDF status]
  const table: Array<[string, object, string, number, string]> = [
    ['test-noop', { result: 'http://example.org/model/1' }, 'text/uri-list', 200, 'http://example.org/model/1'],
    ['test-noop', { result: 'http://example.org/model/1' }, 'application/rdf+xml', 200, 'Completed'],
    ['test-noop', { result: 'http://example.org/model/1' }, '', 200, 'Completed'],
    ['test-slow', { ms: 1200 }, 'text/uri-list', 202, 'task'],
    ['test-slow', { ms: 1200 }, 'application/rdf+xml', 202, 'Running'],
    ['test-fail', { message: 'boom' }, 'text/uri-list', 500, 'task'],
    ['test-fail', { message: 'boom' }, 'application/rdf+xml', 500, 'Error'],
  ];
  for (const [kind, params, accept, status, expected] of table) {
    it(`${kind} with Accept "${accept}" answers ${status}`, async () => {
      const res = await start(kind, params, accept);
      expect(res.status).to.equal(status);
      const body = await res.text();
      const taskUri = status === 202 ? res.headers.get('location')! : '';
      if (accept === 'text/uri-list') {
        expect(res.headers.get('content-type')).to.match(/^text\/uri-list/);
        if (expected !== 'task') expect(uriList(body)).to.deep.equal([expected]);
      } else {
        expect(res.headers.get('content-type')).to.match(/^application\/rdf\+xml/);
        expect(body).to.contain(`<ot:hasStatus>${expected}</ot:hasStatus>`);
      }
      if (status === 202) {
        expect(taskUri).to.match(/\/task\/[0-9a-f-]{36}$/);
        await app.deps.tasks.cancel(taskUri);
      }
      if (expected === 'task') expect(uriList(body)).to.have.length(1).and.to.match(new RegExp(`^${app.url}/task/[0-9a-f-]{36}$`));
    });
  }

  it('a full queue refuses a submission with 503, Retry-After and a report, creating no task', async () => {
    const running = await app.deps.tasks.submit('test-slow', { ms: 5000 }, { title: 'a', creator: app.url });
    await waitForStatus(app.deps.tasks, running.uri, ['Running']);
    const queued = await app.deps.tasks.submit('test-noop', {}, { title: 'b', creator: app.url });
    const before = await (await fetch(app.url + '/task', { headers: { Accept: 'text/uri-list' } })).text();
    const res = await start('test-noop', {}, 'text/plain');
    expect(res.status).to.equal(503);
    expect(res.headers.get('retry-after')).to.match(/^\d+$/);
    // One running and one waiting: the service's whole queue.
    expect(res.headers.get('ratelimit-policy')).to.equal('"queue";q=2;qu="concurrent-requests"');
    expect(res.headers.get('ratelimit')).to.equal(`"queue";r=0;t=${res.headers.get('retry-after')}`);
    expect(await res.text()).to.match(/^503 ServerOverload: the server is overloaded/);
    const after = await (await fetch(app.url + '/task', { headers: { Accept: 'text/uri-list' } })).text();
    expect(after).to.equal(before);
    // A Queued task is cancelled without ever running.
    expect((await fetch(queued.uri, { headers: { Accept: 'text/uri-list' } })).status).to.equal(202);
    expect((await fetch(queued.uri, { method: 'DELETE' })).status).to.equal(200);
    expect((await app.deps.tasks.get(queued.uri))?.status).to.equal('Cancelled');
    await app.deps.tasks.cancel(running.uri);
    expect((await app.deps.tasks.get(running.uri))?.status).to.equal('Cancelled');
  });
});
