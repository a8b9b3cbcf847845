import { expect } from 'chai';
import { startApp, tempDir } from '../helpers/app.ts';
import { defineTestJobs } from '../helpers/testJobs.ts';
import { sleep, turtle, uriList, waitForStatus } from '../helpers/tasks.ts';
import { ERR, OT } from '../../src/rdf/vocab.ts';
import { openTestStore } from '../helpers/engines.ts';
import { taskQuads, type TaskRecord } from '../../src/tasks/tasks.ts';
import type { TaskStatus } from '../../src/tasks/api.ts';

// Task URIs must stay the same across restarts, so these apps get a fixed base URI and
// are reached through `origin`.
const BASE = 'http://tasks.test';
const local = (origin: string, uri: string) => uri.replace(BASE, origin);

function record(id: string, status: TaskStatus, kind: string, idempotent: boolean, extra: Partial<TaskRecord> = {}): TaskRecord {
  return {
    uri: `${BASE}/task/${id}`, creator: `${BASE}/algorithm/test`, status, date: new Date(), title: `left ${status}`,
    percentageCompleted: status === 'Running' ? 40 : 0, resultUris: [], kind, params: JSON.stringify({ ms: 50 }), idempotent, ...extra,
  };
}

describe('tasks across restarts', () => {
  it('resumes what the last process left: Queued runs, Running is re-run or ends interrupted', async () => {
    const dataDir = tempDir();
    const left = {
      queued: record('01900000-0000-7000-8000-000000000001', 'Queued', 'test-noop', false),
      rerun: record('01900000-0000-7000-8000-000000000002', 'Running', 'test-slow', true),
      died: record('01900000-0000-7000-8000-000000000003', 'Running', 'test-slow', false),
      corrupt: record('01900000-0000-7000-8000-000000000005', 'Queued', 'test-noop', false, { params: '{not json' }),
      done: record('01900000-0000-7000-8000-000000000004', 'Completed', 'test-noop', false, { resultUris: ['http://example.org/model/9'], percentageCompleted: 100 }),
    };
    const store = await openTestStore(dataDir);
    for (const t of Object.values(left)) await store.replaceGraph(t.uri, taskQuads(t));
    await store.close();

    const app = await startApp({ baseUrl: BASE }, dataDir);
    try {
      const died = await fetch(local(app.origin, left.died.uri), { headers: { Accept: 'text/turtle' } });
      expect(died.status).to.equal(500);
      const g = turtle(await died.text());
      const report = `${left.died.uri}#error`;
      expect(g.value(left.died.uri, OT.hasStatus)).to.equal('Error');
      expect(g.value(report, OT.errorCode)).to.equal(ERR.TaskInterrupted.value);
      expect(g.value(report, OT.message)).to.contain('stopped while this task was running');
      // Jobs wait for their kind to be defined (modules define kinds after start-up).
      expect((await app.deps.tasks.get(left.rerun.uri))?.status).to.equal('Queued');
      expect((await app.deps.tasks.get(left.queued.uri))?.status).to.equal('Queued');
      const { ran } = defineTestJobs(app.deps.tasks);
      expect((await waitForStatus(app.deps.tasks, left.queued.uri, ['Completed'])).resultUris).to.deep.equal(['http://example.org/result/1']);
      expect((await waitForStatus(app.deps.tasks, left.rerun.uri, ['Completed'])).percentageCompleted).to.equal(100);
      expect(ran.sort()).to.deep.equal(['test-noop', 'test-slow']);
      // Unreadable stored parameters fail that task only.
      const corrupt = await waitForStatus(app.deps.tasks, left.corrupt.uri, ['Error']);
      expect(corrupt.status).to.equal('Error');
      const done = await fetch(local(app.origin, left.done.uri), { headers: { Accept: 'text/uri-list' } });
      expect(done.status).to.equal(200);
      expect(uriList(await done.text())).to.deep.equal(['http://example.org/model/9']);
    } finally {
      await app.close();
    }
  });

  it('close and reopen on the same data: queued tasks run, the interrupted job is reported', async () => {
    const first = await startApp({ baseUrl: BASE, taskConcurrency: 1 });
    defineTestJobs(first.deps.tasks);
    const meta = { title: 't', creator: `${BASE}/algorithm/test` };
    // A CPU-bound job in a worker thread: closing stops it rather than waiting for it.
    const slow = await first.deps.tasks.submit('test-worker', { ms: 30_000 }, meta);
    const queued = await first.deps.tasks.submit('test-noop', { result: 'http://example.org/after' }, meta);
    await waitForStatus(first.deps.tasks, slow.uri, ['Running']);
    await sleep(300);
    const closing = Date.now();
    await first.close({ keepData: true });
    expect(Date.now() - closing).to.be.lessThan(5000); // not the 30 s the job would take

    const second = await startApp({ baseUrl: BASE, taskConcurrency: 1 }, first.dataDir);
    try {
      defineTestJobs(second.deps.tasks);
      const t = await waitForStatus(second.deps.tasks, queued.uri, ['Completed']);
      expect(t.resultUris).to.deep.equal(['http://example.org/after']);
      const res = await fetch(local(second.origin, slow.uri), { headers: { Accept: 'text/plain' } });
      expect(res.status).to.equal(500);
      expect(await res.text()).to.contain('TaskInterrupted');
      const list = await fetch(`${second.origin}/task?query=Completed`, { headers: { Accept: 'text/uri-list' } });
      expect(uriList(await list.text())).to.deep.equal([queued.uri]);
    } finally {
      await second.close();
    }
  });

  it('purges finished tasks after the retention, keeping unfinished ones', async () => {
    const app = await startApp({ taskRetentionHours: 0.0002 }); // 0.72 s
    try {
      defineTestJobs(app.deps.tasks);
      const meta = { title: 't', creator: `${app.url}/algorithm/test` };
      const done = await app.deps.tasks.submit('test-noop', {}, meta);
      const slow = await app.deps.tasks.submit('test-slow', { ms: 4000 }, meta);
      await waitForStatus(app.deps.tasks, done.uri, ['Completed']);
      const until = Date.now() + 5000;
      while ((await fetch(done.uri)).status !== 404) {
        expect(Date.now()).to.be.lessThan(until);
        await sleep(100);
      }
      expect((await fetch(slow.uri)).status).to.equal(202);
      await app.deps.tasks.cancel(slow.uri);
    } finally {
      await app.close();
    }
  });
});
