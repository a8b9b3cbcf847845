// Job threads yield the CPU to the thread serving requests: every thread of the job pool runs
// under SCHED_IDLE (and at JOB_THREAD_NICE, should it ever leave it), and the main thread
// keeps its own policy and priority. Read back from the kernel (/proc/<pid>/task/<tid>/stat:
// field 19 is the nice value, field 41 the scheduling policy, proc(5); SCHED_IDLE is 5 and
// SCHED_OTHER 0 in <linux/sched.h>).
import { expect } from 'chai';
import { WorkerPool } from '../../../src/tasks/workerPool.ts';
import { JOB_THREAD_NICE } from '../../../src/tasks/threadPriority.ts';
import { threadStat } from '../../../src/tasks/threadStat.ts';

/** Job functions run in the pool's threads: `tid` answers the id of the thread a call ran in. */
const THREAD_JOBS = new URL('../../fixtures/threadJobs.ts', import.meta.url);

const SCHED_OTHER = 0;
const SCHED_IDLE = 5;

/** Fields 3 onwards of a thread's stat line, so that field n is at index n - 3; the thread must still run. */
const statOf = (tid: number): string[] => {
  const stat = threadStat(tid);
  if (!stat) throw new Error(`thread ${tid} has ended`);
  return stat;
};
const niceOf = (tid: number): number => Number(statOf(tid)[19 - 3]);
const policyOf = (tid: number): number => Number(statOf(tid)[41 - 3]);

describe('job threads run at a lower CPU priority than the request thread', function () {
  this.timeout(60_000);
  before(function () {
    if (process.platform !== 'linux') this.skip();
  });

  it('every pool thread runs under SCHED_IDLE at JOB_THREAD_NICE; the main thread does not', async () => {
    const before = { nice: niceOf(process.pid), policy: policyOf(process.pid) };
    expect(before.policy).to.equal(SCHED_OTHER);
    const pool = new WorkerPool(2);
    try {
      const tids = await Promise.all([1, 2, 3, 4].map(() => pool.run<number>(THREAD_JOBS, 'tid', null)));
      expect(tids.every((t) => t !== process.pid)).to.equal(true);
      for (const tid of new Set(tids)) {
        expect(policyOf(tid), `policy of thread ${tid}`).to.equal(SCHED_IDLE);
        expect(niceOf(tid), `nice value of thread ${tid}`).to.equal(JOB_THREAD_NICE);
      }
      expect({ nice: niceOf(process.pid), policy: policyOf(process.pid) }).to.deep.equal(before);
    } finally {
      await pool.close();
    }
  });
});
