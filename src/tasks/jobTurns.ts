// Whose turn it is among the job threads while they keep off a core for the clients
// (clientCore.ts). Confined to the cores but one, two SCHED_IDLE threads time-share a core,
// and one preempted by the other while it holds a lock the event loop needs (the process's
// memory map in a page fault, an allocator arena) stalls the event loop for the rest of
// the other's slice. So while the clients keep it busy, one job thread runs and the others
// wait at their next checkpoint (checkCancelled: between molecules, records, trees).
//
// The turn is one Int32 in shared memory, handed to every thread started after this module
// loads (worker_threads environment data: a SharedArrayBuffer is shared, not copied), so
// the job pool's threads, the forest's and any they start read the same word. 0 means
// every thread's turn; otherwise it holds the id (Linux tid) of the thread whose turn it is.
import { getEnvironmentData, setEnvironmentData } from 'node:worker_threads';
import { backgroundThreadId } from './threadPriority.ts';

const KEY = 'opentox-service:job-turn';

function sharedTurn(): Int32Array {
  const inherited = getEnvironmentData(KEY);
  if (inherited instanceof Int32Array) return inherited;
  const word = new Int32Array(new SharedArrayBuffer(4));
  setEnvironmentData(KEY, word);
  return word;
}

const turn = sharedTurn();

/** Longest wait before a waiting thread looks at the turn again (a change wakes it at once). */
const LOOK_AGAIN_MS = 100;

/** Makes it `tid`'s turn (0: every thread's), waking the threads that wait. */
export function giveTurn(tid: number): void {
  if (Atomics.exchange(turn, 0, tid) !== tid) Atomics.notify(turn, 0);
}

/** The thread whose turn it is, 0 for all. */
export function whoseTurn(): number {
  return Atomics.load(turn, 0);
}

/**
 * In a job thread, waits until it is this thread's turn or everyone's, or until `stop`
 * says so (a cancelled call). A no-op elsewhere: the event loop and the parser threads never
 * wait here.
 */
export function awaitTurn(stop: () => boolean = () => false): void {
  let now = Atomics.load(turn, 0);
  if (now === 0) return;
  const me = backgroundThreadId();
  if (me === undefined) return;
  while (now !== 0 && now !== me && !stop()) {
    Atomics.wait(turn, 0, now, LOOK_AGAIN_MS);
    now = Atomics.load(turn, 0);
  }
}
