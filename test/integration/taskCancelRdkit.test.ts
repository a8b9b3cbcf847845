// Cancelling a task whose worker runs RDKit (WASM) must not hang the other threads that
// use RDKit: on Node 20 terminating a thread in the middle of WASM code could (
// cancelling really stops a job, and the service keeps working).
import { expect } from 'chai';
import { startApp, type TestApp } from '../helpers/app.ts';
import { WorkerPool } from '../../src/tasks/workerPool.ts';
import { RDKIT_JOBS } from '../helpers/rdkitJobs.ts';
import { WORKER_JOBS } from '../helpers/testJobs.ts';
import { sleep, waitForStatus } from '../helpers/tasks.ts';

/** Rejects when `p` has not settled within `ms`: a hung worker fails the test, not mocha. */
function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} hung (> ${ms} ms)`)), ms)));
  return Promise.race([p, limit]).finally(() => clearTimeout(timer));
}

describe('cancelling an RDKit worker job', function () {
  this.timeout(30_000);
  let app: TestApp;
  before(async () => {
    app = await startApp({ workers: 3, syncWindowMs: 0 });
    app.deps.tasks.define<{ ms: number }>({
      kind: 'test-rdkit',
      idempotent: false,
      run: async (p, ctx) => {
        await ctx.runInWorker<number>(RDKIT_JOBS, 'rdkitSpin', { ms: p.ms });
        return 'http://example.org/result/rdkit';
      },
    });
  });
  after(() => app?.close());

  it('leaves the other RDKit jobs and new ones running to completion', async () => {
    const tasks = app.deps.tasks;
    const meta = { title: 'rdkit', creator: `${app.url}/algorithm/test` };
    const started = await Promise.all([3000, 3000, 3000].map((ms) => tasks.submit('test-rdkit', { ms }, meta)));
    await Promise.all(started.map((t) => waitForStatus(tasks, t.uri, ['Running'])));
    // Every thread is in RDKit's WASM code by now (module loaded, fingerprint loop running).
    await sleep(1500);
    const cancelled = await tasks.cancel(started[0]!.uri);
    expect(cancelled?.status).to.equal('Cancelled');
    for (const t of started.slice(1)) {
      const done = await within(waitForStatus(tasks, t.uri, ['Completed', 'Error'], 15_000), 8000, `task ${t.uri}`);
      expect(done.status).to.equal('Completed');
    }
    const n = await within(tasks.runInWorker<number>(RDKIT_JOBS, 'rdkitSpin', { ms: 300 }), 8000, 'a new RDKit job');
    expect(n).to.be.greaterThan(0);
  });

  it('stops a cancelled call by itself, without terminating its thread', async () => {
    // A grace period longer than the test: the next call runs only if the first stopped cooperatively.
    const pool = new WorkerPool(1, 600_000);
    try {
      const controller = new AbortController();
      const first = pool.run<number>(RDKIT_JOBS, 'rdkitSpin', { ms: 60_000 }, { signal: controller.signal });
      await sleep(1500);
      controller.abort(new Error('cancelled by the test'));
      let err: Error | undefined;
      await first.catch((e: Error) => (err = e));
      expect(err?.message).to.equal('cancelled by the test');
      expect(await within(pool.run<number>(WORKER_JOBS, 'double', { n: 21 }), 15_000, 'the next call')).to.equal(42);
      expect(pool.threads).to.equal(1);
    } finally {
      await pool.close();
    }
  });
});
