// Threads that run jobs (descriptors, learning, parsing, snapshots) take only the CPU time
// that the thread serving requests, and every other ordinary thread on the machine, leaves
// unused: on a machine whose cores are all busy with jobs, an API call then waits for the
// event loop only, not for a job thread's turn. Nothing is slower on an idle machine, since
// such a thread still gets every core nobody else wants.
//
// The policy is SCHED_IDLE (sched(7)). A nice value alone is not enough: Linux's scheduler
// (EEVDF, since 6.6) may let a running thread of any weight go on to the end of its slice
// before a woken one runs (sched_base_slice × (1 + log2 of the cores): about 1.5 ms on two),
// and on a busy machine the event loop wakes for nearly every request. A SCHED_IDLE thread
// is preempted at once by any other thread that wakes (kernel/sched/fair.c: "Idle tasks are
// by definition preempted by non-idle tasks"). Any thread may move itself to SCHED_IDLE
// without privilege (sched(7), "Privileges and resource limits"). Node has no binding for
// sched_setscheduler(2), so util-linux's chrt(1), part of every Linux base system, sets it
// for the thread's id; the policy, like the nice value, is per thread (setpriority(2),
// NOTES), and /proc/thread-self names the calling thread's id (proc(5)).
//
// The price: on a host shared with other busy services, jobs get only what those leave. A
// host where jobs must keep a share against other processes gives this service cores of its
// own (a cgroup's cpuset) rather than priority over them.
//
// Where chrt is missing or refused, the thread is niced to JOB_THREAD_NICE instead (about a
// tenth of the CPU a busy request thread gets); elsewhere than Linux, or in a sandbox without
// /proc, nothing changes and a job shares the CPU as any thread does.
import { execFileSync } from 'node:child_process';
import { readlinkSync } from 'node:fs';
import os from 'node:os';

/** Nice value of job threads where SCHED_IDLE cannot be set (and their nice value in any case). */
export const JOB_THREAD_NICE = 10;

/** What `runInBackground` obtained for the calling thread. */
export type BackgroundPriority = 'idle' | 'nice' | 'unchanged';

/** The calling thread's id, or undefined off Linux or without /proc. */
function threadId(): number | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isInteger(tid) && tid > 0 ? tid : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The calling thread's id once runInBackground moved it (SCHED_IDLE or JOB_THREAD_NICE:
 * what clientCore.ts counts as a job thread); undefined in other threads.
 */
let background: number | undefined;

/** The calling thread's id if it is a job thread (runInBackground moved it), else undefined. */
export const backgroundThreadId = (): number | undefined => background;

/** Moves the calling thread to SCHED_IDLE, else lowers it to JOB_THREAD_NICE. */
export function runInBackground(): BackgroundPriority {
  const tid = threadId();
  if (tid === undefined) return 'unchanged';
  let result: BackgroundPriority = 'unchanged';
  try {
    // The nice value first: it is what remains should the thread ever leave SCHED_IDLE.
    if (os.getPriority(tid) < JOB_THREAD_NICE) os.setPriority(tid, JOB_THREAD_NICE);
    result = 'nice';
  } catch {
    // An unchangeable nice value does not stop the policy below.
  }
  try {
    execFileSync('chrt', ['--idle', '--pid', '0', String(tid)], { stdio: 'ignore', timeout: 5000 });
    result = 'idle';
  } catch {
    // The nice value, if it was set, is what stays.
  }
  // A thread left as it was is no job thread to clientCore.ts, so never given a turn: it
  // must not wait for one either (jobTurns.ts).
  if (result !== 'unchanged') background = tid;
  return result;
}
