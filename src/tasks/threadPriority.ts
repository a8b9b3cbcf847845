// Threads that run jobs (descriptors, learning, parsing uploads, snapshots) run at a lower
// CPU priority than the thread serving requests: while jobs keep every core busy, the event
// loop still gets most of a core when a request wakes it. On an idle machine nothing is
// slower: a niced thread still gets every core nobody else wants.
//
// On Linux the nice value is per thread, and setpriority(PRIO_PROCESS, 0) changes the
// calling thread only (setpriority(2), NOTES), which is what os.setPriority(0, n) calls.
// Elsewhere it would lower the whole process, the event loop with it, so it is left alone.
import os from 'node:os';

/** How much nicer than the request thread job threads run: about a tenth of the CPU a busy request thread gets. */
export const JOB_THREAD_NICE = 10;

/** The lowest priority there is (setpriority(2)). */
const NICEST = 19;

/**
 * Lowers the calling thread to JOB_THREAD_NICE below the request thread (never raises it);
 * true when it runs there or lower now. Relative, so that a service started niced (as the
 * benches and tests run it) still has its jobs yield to its event loop.
 */
export function runInBackground(): boolean {
  if (process.platform !== 'linux') return false;
  try {
    // On Linux a pid names a thread: process.pid is the request (main) thread.
    const target = Math.min(NICEST, os.getPriority(process.pid) + JOB_THREAD_NICE);
    // Raising a thread's priority back needs privilege: one niced further stays there.
    os.setPriority(0, Math.max(target, os.getPriority(0)));
    return true;
  } catch {
    // A sandbox that refuses it: the job shares the CPU as any thread does.
    return false;
  }
}
