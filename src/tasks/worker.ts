// Entry of every pool worker thread: imports the job module and calls the named function.
// Errors cross the thread boundary as plain data, so an HttpError keeps its status and
// code (structured cloning would keep only the message).
import { threadId, type MessagePort } from 'node:worker_threads';
import { bindCancelFlag, checkCancelled, isCancelled } from './cancellation.ts';
import { runInBackground } from './threadPriority.ts';
import { plainError, type PlainError } from '../errors.ts';

// Jobs yield the CPU to the thread serving requests (threadPriority.ts).
runInBackground();

export interface WorkerCall {
  module: string;
  fn: string;
  input: unknown;
  port?: MessagePort;
  /** Raised (set to 1) by the pool when the call is cancelled (cancellation.ts). */
  cancel?: Int32Array;
}

export type WorkerOutcome =
  | { ok: true; value: unknown }
  | { ok: false; error: PlainError };

/** What a worker function receives besides its input. */
export interface WorkerTools {
  /** Percent done (0-100), forwarded to the task's progress (throttled there). */
  progress: (percent: number) => void;
  /** True once the call was cancelled (task cancelled, timeout, shutdown). */
  readonly cancelled: boolean;
  /**
   * Throws once the call was cancelled: call it between molecules in long loops, so the
   * thread stops by itself before the pool terminates it (cancellation.ts).
   */
  checkCancelled: () => void;
}

export default async function runCall(call: WorkerCall): Promise<WorkerOutcome> {
  bindCancelFlag(call.cancel, threadId);
  const tools: WorkerTools = {
    progress: (p) => call.port?.postMessage(p),
    get cancelled() {
      return isCancelled();
    },
    checkCancelled,
  };
  try {
    // A call cancelled while it waited in the pool's queue does not start.
    checkCancelled();
    const mod = (await import(call.module)) as Record<string, unknown>;
    const fn = mod[call.fn];
    if (typeof fn !== 'function') throw new Error(`${call.module} exports no function ${call.fn}`);
    return { ok: true, value: await (fn as (i: unknown, t: WorkerTools) => unknown)(call.input, tools) };
  } catch (e) {
    return { ok: false, error: plainError(e) };
  } finally {
    bindCancelFlag(undefined, threadId);
    call.port?.close();
  }
}
