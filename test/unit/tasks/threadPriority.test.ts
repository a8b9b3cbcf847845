// Job threads yield the CPU to the thread serving requests: every thread of the job pool
// runs JOB_THREAD_NICE below the main thread (at most at nice 19), in a process started
// niced too, and the main thread keeps its own. Read back from the kernel: field 19 of
// /proc/self/task/<tid>/stat is the thread's nice value (proc(5)).
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { WorkerPool } from '../../../src/tasks/workerPool.ts';
import { JOB_THREAD_NICE } from '../../../src/tasks/threadPriority.ts';

/** Job functions run in the pool's threads: `tid` answers the id of the thread a call ran in. */
const THREAD_JOBS = new URL('../../fixtures/threadJobs.ts', import.meta.url);

/** Thread `tid`'s nice value; the command name (field 2) may hold spaces, so fields are counted after its parenthesis. */
function niceOf(tid: number): number {
  const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19 - 3]);
}

describe('job threads run at a lower CPU priority than the request thread', function () {
  this.timeout(60_000);
  before(function () {
    if (process.platform !== 'linux') this.skip();
  });

  it('every pool thread runs JOB_THREAD_NICE below the main thread; the main thread keeps its nice value', async () => {
    const main = niceOf(process.pid);
    const pool = new WorkerPool(2);
    try {
      const tids = await Promise.all([1, 2, 3, 4].map(() => pool.run<number>(THREAD_JOBS, 'tid', null)));
      expect(tids.every((t) => t !== process.pid)).to.equal(true);
      for (const tid of new Set(tids)) expect(niceOf(tid), `nice value of thread ${tid}`).to.equal(Math.min(19, main + JOB_THREAD_NICE));
      expect(niceOf(process.pid)).to.equal(main);
    } finally {
      await pool.close();
    }
  });

  it('the threads of work a client waits on (a request pool) keep the main thread\'s nice value', async () => {
    const main = niceOf(process.pid);
    const pool = new WorkerPool(2, undefined, undefined, false);
    try {
      const tids = await Promise.all([1, 2, 3, 4].map(() => pool.run<number>(THREAD_JOBS, 'tid', null)));
      for (const tid of new Set(tids)) expect(niceOf(tid), `nice value of thread ${tid}`).to.equal(main);
    } finally {
      await pool.close();
    }
  });
});
