// Cooperative cancellation of worker calls. Terminating a worker thread while it runs
// WASM (RDKit) can hang the other threads that run it on Node 20, so a cancelled call is
// first asked to stop: the pool raises a flag in shared memory, and long loops in worker
// functions call checkCancelled() between molecules, which throws once it is raised. The
// pool terminates the thread only if the call has not stopped within a grace period.

/** Thrown by checkCancelled() in a worker whose call was cancelled. */
export class WorkerCancelled extends Error {
  constructor() {
    super('the worker call was cancelled');
  }
}

/** The flag of the call this thread runs now (piscina runs one call per thread at a time). */
let current: Int32Array | undefined;

/**
 * A new flag for one call: shared memory, seen by the worker without an event-loop turn. Its
 * second slot holds the id of the thread running the call, 0 before and after, so that the
 * pool knows which thread to terminate.
 */
export function newCancelFlag(): Int32Array {
  return new Int32Array(new SharedArrayBuffer(8));
}

export function raiseCancelFlag(flag: Int32Array): void {
  Atomics.store(flag, 0, 1);
}

/** Makes `flag` the one checkCancelled() reads in thread `threadId` (undefined: none, the call is over). */
export function bindCancelFlag(flag: Int32Array | undefined, threadId: number): void {
  if (current) Atomics.store(current, 1, 0);
  current = flag;
  if (flag) Atomics.store(flag, 1, threadId);
}

/** The id of the thread running the call of `flag`; 0 when it has not started or is over. */
export function threadOf(flag: Int32Array): number {
  return Atomics.load(flag, 1);
}

/** True once the worker call running in this thread was cancelled; false outside calls. */
export function isCancelled(): boolean {
  return current !== undefined && Atomics.load(current, 0) === 1;
}

/** Throws WorkerCancelled once the current worker call was cancelled; cheap enough per molecule. */
export function checkCancelled(): void {
  if (isCancelled()) throw new WorkerCancelled();
}
