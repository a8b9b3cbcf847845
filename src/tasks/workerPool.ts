// Worker threads for CPU-heavy jobs (issue #4 §5), so the API keeps answering while they
// run. Piscina aborts a running call by terminating its thread, which is what makes
// cancelling a task really stop it. Threads start on first use: most processes (and most
// test apps) never need one.
import { MessageChannel } from 'node:worker_threads';
import { pathToFileURL } from 'node:url';
import { Piscina } from 'piscina';
import { DataFactory } from 'n3';
import { HttpError, InternalError, ServiceUnavailable } from '../http/errors.ts';
import type { WorkerOptions } from './api.ts';
import type { WorkerCall, WorkerOutcome } from './worker.ts';

const WORKER = new URL('./worker.mjs', import.meta.url).href;

function moduleUrl(module: URL | string): string {
  if (module instanceof URL) return module.href;
  return /^(file|data):/.test(module) ? module : pathToFileURL(module).href;
}

/** Rebuilds a worker's error on this side of the thread boundary. */
function errorFrom(e: Extract<WorkerOutcome, { ok: false }>['error']): Error {
  if (e.status && e.code) return new HttpError(e.status, DataFactory.namedNode(e.code), e.message, { details: e.details });
  return Object.assign(new Error(e.message), { stack: e.stack });
}

export class WorkerPool {
  private pool: Piscina | undefined;
  private closed = false;

  constructor(readonly size: number) {}

  private get piscina(): Piscina {
    this.pool ??= new Piscina({ filename: WORKER, minThreads: 0, maxThreads: this.size, idleTimeout: 30_000 });
    return this.pool;
  }

  /** Threads currently started (for tests and the benchmark). */
  get threads(): number {
    return this.pool?.threads.length ?? 0;
  }

  async run<T>(module: URL | string, fn: string, input: unknown, options: WorkerOptions = {}): Promise<T> {
    if (this.closed) throw new ServiceUnavailable('the service is stopping; no new worker jobs are accepted');
    const timeout = options.timeoutMs ? AbortSignal.timeout(options.timeoutMs) : undefined;
    const signals = [options.signal, timeout].filter((s): s is AbortSignal => s !== undefined);
    const signal = signals.length > 0 ? AbortSignal.any(signals) : undefined;
    const channel = options.onProgress ? new MessageChannel() : undefined;
    channel?.port1.on('message', (p: unknown) => options.onProgress?.(Number(p)));
    const call: WorkerCall = { module: moduleUrl(module), fn, input, port: channel?.port2 };
    try {
      const outcome = (await this.piscina.run(call, { signal, transferList: channel ? [channel.port2] : undefined })) as WorkerOutcome;
      if (!outcome.ok) throw errorFrom(outcome.error);
      return outcome.value as T;
    } catch (e) {
      if (options.signal?.aborted) throw options.signal.reason ?? e;
      if (timeout?.aborted) throw new InternalError(`worker function ${fn} took longer than ${options.timeoutMs} ms and was stopped`);
      throw e;
    } finally {
      channel?.port1.close();
    }
  }

  /** Terminates every thread; running calls are rejected. */
  async close(): Promise<void> {
    this.closed = true;
    await this.pool?.destroy();
  }
}
