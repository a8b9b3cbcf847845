// Threads that run jobs (descriptors, learning, parsing, snapshots) ask the scheduler for
// less CPU than the thread that serves requests. On a machine whose cores are all busy with
// jobs, an API call then waits for the event loop only, not for a job thread's time slice:
// polls stay as fast while jobs run. Nothing is slower on an idle machine, since a niced
// thread still gets every core nobody else wants.
//
// Linux keeps the nice value per thread (setpriority(2), NOTES: under NPTL it is a per-thread
// attribute, so PRIO_PROCESS with a thread id changes that thread alone); /proc/thread-self
// names the calling thread's id (proc(5)). Raising one's own nice value needs no privilege.
// Elsewhere (or in a sandbox without /proc) this does nothing: a job there shares the CPU
// as before.
import { readlinkSync } from 'node:fs';
import os from 'node:os';

/** Nice value of job threads: 10 gets them about a tenth of the CPU a busy request thread gets. */
export const JOB_THREAD_NICE = 10;

/** Lowers the calling thread's CPU priority to JOB_THREAD_NICE; false when the platform cannot. */
export function runInBackground(): boolean {
  if (process.platform !== 'linux') return false;
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (!Number.isInteger(tid) || tid <= 0) return false;
    if (os.getPriority(tid) < JOB_THREAD_NICE) os.setPriority(tid, JOB_THREAD_NICE);
    return true;
  } catch {
    return false;
  }
}
