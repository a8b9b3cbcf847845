// Job threads yield the CPU to the thread serving requests: every thread of the job pool runs
// at JOB_THREAD_NICE, and the main thread keeps its own priority. Read back from the kernel
// (/proc/<pid>/task/<tid>/stat, field 19 is the nice value: proc(5)).
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { WorkerPool } from '../../../src/tasks/workerPool.ts';
import { JOB_THREAD_NICE } from '../../../src/tasks/threadPriority.ts';

/** A job module that answers with the id of the thread it ran in. */
const THREAD_ID = 'data:text/javascript,' + encodeURIComponent(
  "import { readlinkSync } from 'node:fs'; export function tid() { return Number(readlinkSync('/proc/thread-self').split('/').pop()); }",
);

const niceOf = (tid: number): number => {
  const stat = readFileSync(`/proc/${process.pid}/task/${tid}/stat`, 'utf8');
  // The command name (field 2) may hold spaces: count fields after its closing parenthesis.
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
};

describe('job threads run at a lower CPU priority than the request thread', function () {
  this.timeout(60_000);
  before(function () {
    if (process.platform !== 'linux') this.skip();
  });

  it('every pool thread is niced to JOB_THREAD_NICE; the main thread is not', async () => {
    const before = niceOf(process.pid);
    const pool = new WorkerPool(2);
    try {
      const tids = await Promise.all([1, 2, 3, 4].map(() => pool.run<number>(THREAD_ID, 'tid', null)));
      expect(tids.every((t) => t !== process.pid)).to.equal(true);
      for (const tid of new Set(tids)) expect(niceOf(tid), `thread ${tid}`).to.equal(JOB_THREAD_NICE);
      expect(niceOf(process.pid)).to.equal(before);
    } finally {
      await pool.close();
    }
  });
});
