// Worker threads for CPU-heavy work, so the API keeps answering while it runs: a Piscina
// pool whose queue is the only one (first come, first served); the job engine keeps one for
// jobs, whose threads run at a lower priority, and one for work a client waits on in its
// request, whose threads keep the event loop's (threadPriority.ts). A cancelled call is
// rejected at once and asked to stop (cancellation.ts); its thread is terminated only if it
// goes on past a grace period, since terminating a thread in RDKit's WASM code can hang the
// other threads on Node 20. Threads start on first use: most processes never need one.
import { once } from 'node:events';
import { MessageChannel } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';
import { Piscina } from 'piscina';
import { errorFromPlain, InternalError, ServiceUnavailable } from '../errors.ts';
import type { WorkerOptions } from './api.ts';
import type { WorkerCall, WorkerOutcome } from './worker.ts';
import { newCancelFlag, raiseCancelFlag, threadOf } from './cancellation.ts';
import { poolEntry, threadModule } from '../threads/threadModule.ts';

const ENTRY = poolEntry(threadModule('./worker.ts', import.meta.url));
/** How long a cancelled call may take to stop by itself before its thread is terminated. */
export const CANCEL_GRACE_MS = 3000;
/**
 * How long a thread with nothing to do is kept. Starting one and loading its toolkits takes
 * a second or two of CPU, which an upload after a pause would wait for; an idle thread costs
 * only memory. (Piscina's own default, a second, would start them again for every job.)
 */
export const IDLE_THREAD_MS = 15 * 60_000;
/** A call that does nothing: Piscina starts a thread for the calls queued behind it. */
const NOTHING: WorkerCall = { module: 'data:text/javascript,export const nothing = () => 0', fn: 'nothing', input: null };

const stopping = () => new ServiceUnavailable('the service is stopping; no new worker jobs are accepted');

function moduleUrl(module: URL | string): string {
  if (module instanceof URL) return module.href;
  return /^(file|data):/.test(module) ? module : pathToFileURL(module).href;
}

export class WorkerPool {
  private pool: Piscina | undefined;
  private closed = false;
  /** Calls in flight (queued or running), with their cancel flags: close() asks them to stop first. */
  private readonly inFlight = new Map<Promise<unknown>, Int32Array>();

  constructor(
    readonly size: number,
    readonly cancelGraceMs = CANCEL_GRACE_MS,
    readonly idleThreadMs = IDLE_THREAD_MS,
    /** Threads at a lower priority than the event loop (jobs); false for work a client waits on. */
    readonly background = true,
  ) {}

  /**
   * Calls get no abort signal: Piscina queues calls that carry one apart from the others and
   * out of order, and a cancelled call still queued starts and stops at once (worker.ts).
   * stricterFIFO keeps a call it could not hand to a thread at the head of its queue.
   */
  private get piscina(): Piscina {
    this.pool ??= new Piscina({ ...ENTRY, minThreads: 0, maxThreads: this.size, idleTimeout: this.idleThreadMs, stricterFIFO: true, workerData: { background: this.background } });
    return this.pool;
  }

  /** Threads currently started (for tests and the benchmark). */
  get threads(): number {
    return this.pool?.threads.length ?? 0;
  }

  async run<T>(module: URL | string, fn: string, input: unknown, options: WorkerOptions = {}): Promise<T> {
    if (this.closed) throw stopping();
    const timeout = options.timeoutMs ? AbortSignal.timeout(options.timeoutMs) : undefined;
    const signals = [options.signal, timeout].filter((s): s is AbortSignal => s !== undefined);
    const signal = signals.length > 0 ? AbortSignal.any(signals) : undefined;
    const channel = options.onProgress ? new MessageChannel() : undefined;
    channel?.port1.on('message', (p: unknown) => options.onProgress?.(Number(p)));
    const cancel = newCancelFlag();
    const call: WorkerCall = { module: moduleUrl(module), fn, input, port: channel?.port2, cancel };
    let stop: (() => void) | undefined;
    try {
      signal?.throwIfAborted();
      const running = this.piscina.run(call, { transferList: channel ? [channel.port2] : undefined }) as Promise<WorkerOutcome>;
      const settled = running.catch(() => undefined);
      this.inFlight.set(settled, cancel);
      void settled.finally(() => this.inFlight.delete(settled));
      const stopped = new Promise<never>((_, reject) => {
        stop = () => {
          reject(signal?.reason);
          raiseCancelFlag(cancel);
          const timer = setTimeout(() => this.terminate(cancel), this.cancelGraceMs);
          void settled.finally(() => clearTimeout(timer));
        };
      });
      if (stop) signal?.addEventListener('abort', stop, { once: true });
      const outcome = await Promise.race([running, stopped]);
      if (!outcome.ok) throw errorFromPlain(outcome.error);
      return outcome.value as T;
    } catch (e) {
      if (options.signal?.aborted) throw options.signal.reason ?? e;
      if (timeout?.aborted) throw new InternalError(`worker function ${fn} took longer than ${options.timeoutMs} ms and was stopped`);
      if (this.closed) throw stopping();
      throw e;
    } finally {
      if (stop) signal?.removeEventListener('abort', stop);
      channel?.port1.close();
    }
  }

  /**
   * Terminates the thread that still runs the call of `cancel`, if any. Piscina fails the
   * call and replaces a thread only up to minThreads (0), so when calls are queued a call
   * that does nothing makes it start one for them.
   */
  private terminate(cancel: Int32Array): void {
    const id = threadOf(cancel);
    const thread = id === 0 ? undefined : this.pool?.threads.find((t) => t.threadId === id);
    if (!thread) return;
    void once(thread, 'exit').then(() => {
      if (!this.closed && this.piscina.queueSize > 0) void this.piscina.run(NOTHING).catch(() => undefined);
    });
    void thread.terminate();
  }

  /** Asks every call queued or running to stop, waits for them up to the grace period, then terminates every thread. */
  async close(): Promise<void> {
    this.closed = true;
    for (const flag of this.inFlight.values()) raiseCancelFlag(flag);
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise((r) => (timer = setTimeout(r, this.cancelGraceMs)));
    await Promise.race([Promise.all(this.inFlight.keys()), grace]);
    clearTimeout(timer);
    await this.pool?.destroy();
  }
}
