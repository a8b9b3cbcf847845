// Entry of every pool worker thread: imports the job module and calls the named function.
// Errors cross the thread boundary as plain data, so an HttpError keeps its status and
// code (structured cloning would keep only the message).
import { threadId, type MessagePort } from 'node:worker_threads';
import { bindCancelFlag, checkCancelled, isCancelled } from './cancellation.ts';
import { runInBackground } from './threadPriority.ts';
import { plainError, type PlainError } from '../errors.ts';
import { move, transferableSymbol, valueSymbol, workerData } from 'piscina';

// Jobs yield the CPU to the thread serving requests (threadPriority.ts); the threads of work a
// client waits on do not.
if ((workerData as { background?: boolean } | undefined)?.background !== false) runInBackground();

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
  /**
   * Moves `buffers`, part of the value the function returns, to the caller instead of
   * copying them: a large result then costs the caller's event loop nothing to receive.
   * The function must not touch them after it returns.
   */
  transfer: (buffers: readonly ArrayBuffer[]) => void;
}

/** The outcome with `buffers` moved along (Piscina's Transferable protocol). */
const moved = (outcome: WorkerOutcome, buffers: ArrayBuffer[]) => move({ [transferableSymbol]: buffers, [valueSymbol]: outcome } as never) as unknown as WorkerOutcome;

export default async function runCall(call: WorkerCall): Promise<WorkerOutcome> {
  bindCancelFlag(call.cancel, threadId);
  const buffers: ArrayBuffer[] = [];
  const tools: WorkerTools = {
    progress: (p) => call.port?.postMessage(p),
    get cancelled() {
      return isCancelled();
    },
    checkCancelled,
    transfer: (b) => void buffers.push(...b),
  };
  try {
    // A call cancelled while it waited in the pool's queue does not start.
    checkCancelled();
    const mod = (await import(call.module)) as Record<string, unknown>;
    const fn = mod[call.fn];
    if (typeof fn !== 'function') throw new Error(`${call.module} exports no function ${call.fn}`);
    const outcome: WorkerOutcome = { ok: true, value: await (fn as (i: unknown, t: WorkerTools) => unknown)(call.input, tools) };
    return buffers.length > 0 ? moved(outcome, buffers) : outcome;
  } catch (e) {
    return { ok: false, error: plainError(e) };
  } finally {
    bindCancelFlag(undefined, threadId);
    call.port?.close();
  }
}
