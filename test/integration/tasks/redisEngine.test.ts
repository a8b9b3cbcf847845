// The job engine in the distributed mode (REDIS_URL), in one process: an API engine started
// with WORKERS=0 and a worker engine share a store and a real Redis (Debian's redis-server,
// temp dir, free loopback port). Killing a worker for real is in distributed.test.ts; here
// the queue hands back a job whose task says Running, which is what it does after a death.
import { expect } from 'chai';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { startRedis, type Redis } from '../../../scripts/engines/redis.ts';
import { TripleStore } from '../../../src/store/embedded/store.ts';
import { loadConfig } from '../../../src/config.ts';
import { createLogger } from '../../../src/logger.ts';
import { JobEngine } from '../../../src/tasks/engine.ts';
import { readTask, taskQuads, type TaskRecord } from '../../../src/tasks/tasks.ts';
import { uuidv7 } from '../../../src/tasks/ids.ts';
import type { Deps } from '../../../src/deps.ts';
import type { Store } from '../../../src/store/api.ts';
import { defineTestJobs, startJobApp } from '../../helpers/testJobs.ts';
import { tempDir } from '../../helpers/app.ts';
import { until } from '../../helpers/until.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('job engine on Redis: API processes with WORKERS=0 and worker processes', function () {
  this.timeout(60_000);
  let redis: Redis;
  let dir: string;
  let store: Store;
  let api: JobEngine;
  let worker: JobEngine;
  let ranApi: string[];
  let ranWorker: string[];
  let discardedApi: Array<{ result?: string }>;
  let discardedWorker: Array<{ result?: string }>;

  const engineDeps = (url: string) => ({
    config: loadConfig([], {}, { dataDir: dir, baseUrl: 'http://example.org', redisUrl: url, jobLockMs: 1000, workers: 0, syncWindowMs: 0 }),
    store,
    logger: createLogger('silent'),
  });
  const engine = (role: 'api' | 'worker', url = redis.url) => new JobEngine(engineDeps(url), { role });
  const stored = async (uri: string) => (await readTask(store, uri))?.record;

  before(async () => {
    dir = tempDir('opentox-redis-engine-');
    redis = await startRedis(path.join(dir, 'redis'));
    store = await TripleStore.open(path.join(dir, 'store'));
    api = engine('api');
    worker = engine('worker');
    ({ ran: ranApi, discarded: discardedApi } = defineTestJobs(api));
    ({ ran: ranWorker, discarded: discardedWorker } = defineTestJobs(worker));
    await api.start();
    await worker.start();
  });
  after(async () => {
    await api?.close();
    await worker?.close();
    await store?.close();
    await redis?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a job submitted to an API engine with WORKERS=0 runs in the worker; the API answers its state', async () => {
    const task = await api.submit('test-noop', { result: 'http://example.org/result/7' }, { title: 'noop', creator: 'http://example.org/algorithm/test' });
    expect(task.status).to.equal('Queued');
    const done = await api.settled(task.uri, 10_000);
    expect(done?.status).to.equal('Completed');
    expect(done?.resultUris).to.deep.equal(['http://example.org/result/7']);
    expect(ranWorker).to.include('test-noop');
    expect(ranApi).to.deep.equal([]);
  });

  it('DELETE /task/{id} through the API reaches the worker running the job; the task stays Cancelled', async () => {
    const result = 'http://example.org/held/running';
    const task = await api.submit('test-slow', { ms: 8000, result }, { title: 'slow', creator: 'http://example.org/algorithm/test' });
    await until('Running', async () => ((await api.get(task.uri))?.status === 'Running' ? true : undefined));
    expect(worker.holds(task.uri)).to.equal(true);
    const cancelled = await api.cancel(task.uri);
    expect(cancelled?.status).to.equal('Cancelled');
    // The worker's job stops (its slot frees) long before its 8 s are over.
    await until('the worker to drop the job', async () => (worker.holds(task.uri) ? undefined : true), 3000);
    await sleep(600);
    expect((await stored(task.uri))?.status).to.equal('Cancelled');
    // What the task held goes where its job ran, once the job has stopped.
    expect(discardedWorker.map((p) => p.result)).to.include(result);
    expect(discardedApi.map((p) => p.result)).not.to.include(result);
  });

  it('a job cancelled while it waits in the queue is dropped there, and the cancelling process discards what its task held', async () => {
    const meta = { title: 'slow', creator: 'http://example.org/algorithm/test' };
    const slowRuns = () => ranWorker.filter((k) => k === 'test-slow').length;
    const before = slowRuns();
    // Every slot of the worker taken, so that one more job waits in Redis.
    const busy = await Promise.all(Array.from({ length: worker.concurrency }, () => api.submit('test-slow', { ms: 20_000 }, meta)));
    await until('every slot busy', async () => ((await Promise.all(busy.map((t) => api.get(t.uri)))).every((t) => t?.status === 'Running') ? true : undefined));
    const result = 'http://example.org/held/waiting';
    const task = await api.submit('test-slow', { ms: 100, result }, meta);
    expect((await api.cancel(task.uri))?.status).to.equal('Cancelled');
    expect(discardedApi.map((p) => p.result)).to.include(result);
    for (const t of busy) await api.cancel(t.uri);
    await until('the worker to stop the busy jobs', () => busy.every((t) => !worker.holds(t.uri)), 5000);
    await sleep(300);
    // The cancelled one never ran.
    expect(slowRuns()).to.equal(before + busy.length);
    expect(discardedWorker.map((p) => p.result)).not.to.include(result);
  });

  const handBack = async (kind: string, idempotent: boolean): Promise<string> => {
    // A task as a worker that died left it: Running in the store, its job back in the queue.
    const record: TaskRecord = {
      uri: `http://example.org/task/${uuidv7()}`, creator: 'http://example.org/algorithm/test', status: 'Running', date: new Date(),
      title: kind, percentageCompleted: 40, resultUris: [], kind, params: JSON.stringify({ ms: 100 }), idempotent,
    };
    await store.replaceGraph(record.uri, taskQuads(record));
    await api.queue!.enqueue({ taskUri: record.uri, kind, idempotent });
    return record.uri;
  };

  it('a non-idempotent job whose worker died ends as Error TaskInterrupted, not run again', async () => {
    const before = ranWorker.length;
    const uri = await handBack('test-slow', false);
    const t = await until('a final state', async () => {
      const r = await stored(uri);
      return r && r.status !== 'Running' ? r : undefined;
    });
    expect(t.status).to.equal('Error');
    expect(t.error?.code).to.equal('http://www.opentox.org/errors.owl#TaskInterrupted');
    expect(ranWorker.length).to.equal(before);
  });

  it('an idempotent job whose worker died runs again from the start and completes', async () => {
    await sleep(100);
    const uri = await handBack('test-noop', true);
    const t = await until('a final state', async () => {
      const r = await stored(uri);
      return r && (r.status === 'Completed' || r.status === 'Error') ? r : undefined;
    });
    expect(t.status).to.equal('Completed');
    expect(t.percentageCompleted).to.equal(100);
  });

  it('Redis unreachable: a submission answers 503 with Retry-After and a report, and no task is left behind', async () => {
    const away = await startRedis(path.join(dir, 'redis-away'));
    const lonelyDeps = engineDeps(away.url);
    const lonely = new JobEngine(lonelyDeps, { role: 'api' });
    defineTestJobs(lonely);
    await lonely.start();
    const app = await startJobApp({ ...lonelyDeps, tasks: lonely } as unknown as Deps);
    try {
      await away.stop();
      const tasksBefore = (await store.select('graphs-with-prefix', { prefix: 'http://example.org/task/' })).length;
      const res = await fetch(`${app.url}/start/test-noop`, { method: 'POST', headers: { Accept: 'text/turtle' }, body: '{}' });
      expect(res.status).to.equal(503);
      expect(Number(res.headers.get('retry-after'))).to.be.greaterThan(0);
      const report = await res.text();
      expect(report).to.contain('ErrorReport').and.contain('job queue');
      const tasksAfter = (await store.select('graphs-with-prefix', { prefix: 'http://example.org/task/' })).length;
      expect(tasksAfter).to.equal(tasksBefore);
    } finally {
      await app.close();
      await lonely.close();
    }
  });
});
