// Worker threads for CPU-heavy jobs, so the API keeps answering while they
// run. A cancelled call is rejected at once and asked to stop (cancellation.ts); its
// thread is terminated (piscina's abort) only if it goes on past a grace period, since
// terminating a thread in RDKit's WASM code can hang the other threads on Node 20.
// Threads start on first use: most processes (and most test apps) never need one.
import { MessageChannel } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';
import { Piscina } from 'piscina';
import { errorFromPlain, InternalError, ServiceUnavailable } from '../errors.ts';
import type { WorkerOptions } from './api.ts';
import type { WorkerCall, WorkerOutcome } from './worker.ts';
import { newCancelFlag, raiseCancelFlag } from './cancellation.ts';
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

function moduleUrl(module: URL | string): string {
  if (module instanceof URL) return module.href;
  return /^(file|data):/.test(module) ? module : pathToFileURL(module).href;
}

export class WorkerPool {
  private pool: Piscina | undefined;
  private closed = false;
  /** Calls in flight, with their cancel flags: close() asks them to stop first. */
  private readonly inFlight = new Map<Promise<unknown>, Int32Array>();
  /** Calls handed to Piscina and not yet settled: at most one per thread (slot). */
  private running = 0;
  /** Calls waiting for a thread, in the order they came (slot). */
  private readonly waiting: Array<() => void> = [];

  constructor(
    readonly size: number,
    readonly cancelGraceMs = CANCEL_GRACE_MS,
    readonly idleThreadMs = IDLE_THREAD_MS,
  ) {}

  private get piscina(): Piscina {
    this.pool ??= new Piscina({ ...ENTRY, minThreads: 0, maxThreads: this.size, idleTimeout: this.idleThreadMs });
    return this.pool;
  }

  /** Threads currently started (for tests and the benchmark). */
  get threads(): number {
    return this.pool?.threads.length ?? 0;
  }

  /**
   * Waits until a thread is free for one more call, first come first served. Piscina's own
   * queue keeps no order for calls that carry an abort signal, as ours do (to terminate a
   * thread that ignores a cancel): a call it cannot hand to a thread at once goes to the back
   * of a second queue, or with its stricterFIFO option to the front, so a burst of calls ran
   * in neither order. An upload stores its batches in order, so its progress stood still
   * while the threads parsed batches it could not store yet. Here Piscina gets a call only
   * when a thread is free.
   */
  private async slot(signal: AbortSignal | undefined): Promise<void> {
    if (this.running < this.size && this.waiting.length === 0) {
      this.running++;
      return;
    }
    await new Promise<void>((resolve, reject) => {
      // The slot is handed on by release(): `running` stays as it is.
      const take = () => {
        signal?.removeEventListener('abort', abort);
        resolve();
      };
      const abort = () => {
        const i = this.waiting.indexOf(take);
        if (i >= 0) this.waiting.splice(i, 1);
        reject(signal?.reason);
      };
      this.waiting.push(take);
      signal?.addEventListener('abort', abort, { once: true });
    });
  }

  /** A call handed to Piscina has settled: its slot goes to the first waiting call. */
  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.running--;
  }

  async run<T>(module: URL | string, fn: string, input: unknown, options: WorkerOptions = {}): Promise<T> {
    if (this.closed) throw new ServiceUnavailable('the service is stopping; no new worker jobs are accepted');
    const timeout = options.timeoutMs ? AbortSignal.timeout(options.timeoutMs) : undefined;
    const signals = [options.signal, timeout].filter((s): s is AbortSignal => s !== undefined);
    const signal = signals.length > 0 ? AbortSignal.any(signals) : undefined;
    const channel = options.onProgress ? new MessageChannel() : undefined;
    channel?.port1.on('message', (p: unknown) => options.onProgress?.(Number(p)));
    const cancel = newCancelFlag();
    const terminate = new AbortController();
    const call: WorkerCall = { module: moduleUrl(module), fn, input, port: channel?.port2, cancel };
    let stop: (() => void) | undefined;
    try {
      signal?.throwIfAborted();
      await this.slot(signal);
      let running: Promise<WorkerOutcome>;
      try {
        if (this.closed) throw new ServiceUnavailable('the service is stopping; no new worker jobs are accepted');
        signal?.throwIfAborted();
        running = this.piscina.run(call, { signal: terminate.signal, transferList: channel ? [channel.port2] : undefined }) as Promise<WorkerOutcome>;
      } catch (e) {
        this.release();
        throw e;
      }
      void running.catch(() => undefined).finally(() => this.release());
      const stopped = new Promise<never>((_, reject) => {
        stop = () => {
          reject(signal?.reason);
          raiseCancelFlag(cancel);
          // Piscina ends the thread; the next waiting call, handed over when this one
          // settles, makes it start another (it starts one for a call no thread can take).
          const timer = setTimeout(() => terminate.abort(), this.cancelGraceMs);
          void running.catch(() => undefined).finally(() => clearTimeout(timer));
        };
      });
      if (stop) signal?.addEventListener('abort', stop, { once: true });
      const settled = running.catch(() => undefined);
      this.inFlight.set(settled, cancel);
      void settled.finally(() => this.inFlight.delete(settled));
      const outcome = await Promise.race([running, stopped]);
      if (!outcome.ok) throw errorFromPlain(outcome.error);
      return outcome.value as T;
    } catch (e) {
      if (options.signal?.aborted) throw options.signal.reason ?? e;
      if (timeout?.aborted) throw new InternalError(`worker function ${fn} took longer than ${options.timeoutMs} ms and was stopped`);
      throw e;
    } finally {
      if (stop) signal?.removeEventListener('abort', stop);
      channel?.port1.close();
    }
  }

  /** Asks running calls to stop, waits for them up to the grace period, then terminates every thread. */
  async close(): Promise<void> {
    this.closed = true;
    // Waiting calls get a slot now, each refused as it takes it (run checks `closed`) and
    // giving it back.
    const waiting = this.waiting.splice(0);
    this.running += waiting.length;
    for (const take of waiting) take();
    for (const flag of this.inFlight.values()) raiseCancelFlag(flag);
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise((r) => (timer = setTimeout(r, this.cancelGraceMs)));
    await Promise.race([Promise.all(this.inFlight.keys()), grace]);
    clearTimeout(timer);
    await this.pool?.destroy();
  }
}
