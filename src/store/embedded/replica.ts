// The main thread's side of the SPARQL read replica (src/store/replicaWorker.ts): one
// query at a time, each with a time limit. A query past its limit cannot be interrupted
// inside Oxigraph, so the worker is terminated and a fresh one loaded; queries queued
// meanwhile wait for it (DESIGN: heavy reads never block the API's event loop).
import type { Worker } from 'node:worker_threads';
import { startThread, threadModule } from '../../threads/threadModule.ts';
import type { ReplayPlan } from './layout.ts';
import type { JournalRecord } from '../writeOps.ts';
import type { ReplicaIn, ReplicaOut } from './replicaWorker.ts';
import { BadRequest, ServiceUnavailable } from '../../errors.ts';
import { ERR } from '../../rdf/vocab.ts';

export type QueryRequest = Omit<Extract<ReplicaIn, { type: 'query' }>, 'type' | 'id'>;

interface Job {
  id: number;
  request: QueryRequest;
  signal?: AbortSignal;
  resolve: (body: string) => void;
  reject: (e: Error) => void;
}

const WORKER_URL = threadModule('./replicaWorker.ts', import.meta.url);
/** Queries waiting beyond this are refused: the replica is saturated. */
const MAX_QUEUE = 64;
/**
 * The worker's Oxigraph keeps every quad it ever held (see REBUILD_MIN in store.ts): once the
 * quads replaced or removed since it loaded exceed what the store holds (and this), it is let
 * go when idle, and the next query loads a fresh one; a thread that ends gives all of its
 * memory back.
 */
const RECYCLE_MIN = 200_000;

export interface ReplicaHooks {
  /** The files to load, captured at the moment the worker starts; pins them against deletion. */
  plan: () => ReplayPlan;
  /** Called once the worker has read its files. */
  loaded: () => void;
  /** Quads replaced or removed in the store so far (a running count), and what it holds. */
  wear: () => { garbage: number; held: number };
  log: (m: unknown) => void;
}

export class Replica {
  private worker: Worker | undefined;
  private ready = false;
  private queue: Job[] = [];
  private running: { job: Job; timer: NodeJS.Timeout } | undefined;
  private nextId = 1;
  private closed = false;
  /** The store's running garbage count when the worker started. */
  private garbageAtStart = 0;
  /** Workers let go because of their garbage (for tests). */
  recycled = 0;

  constructor(private readonly timeoutMs: number, private readonly hooks: ReplicaHooks) {}

  /** Forwards a committed record; called in commit order. */
  apply(record: JournalRecord): void {
    if (!this.worker) return;
    this.worker.postMessage({ type: 'apply', record } satisfies ReplicaIn);
    this.recycleIfIdle();
  }

  /** Lets a worker full of garbage go while no query needs it (the next query starts a fresh one). */
  private recycleIfIdle(): void {
    if (!this.worker || !this.ready || this.running || this.queue.length > 0) return;
    const { garbage, held } = this.hooks.wear();
    if (garbage - this.garbageAtStart <= Math.max(RECYCLE_MIN, held)) return;
    const old = this.worker;
    this.worker = undefined;
    this.recycled++;
    void old.terminate();
  }

  query(request: QueryRequest, signal?: AbortSignal): Promise<string> {
    if (this.closed) return Promise.reject(new ServiceUnavailable('the store is closing'));
    if (this.queue.length >= MAX_QUEUE) {
      return Promise.reject(new ServiceUnavailable(`${MAX_QUEUE} SPARQL queries are already waiting`, { code: ERR.ServerOverload, retryAfterSeconds: 5 }));
    }
    return new Promise((resolve, reject) => {
      const job: Job = { id: this.nextId++, request, signal, resolve, reject };
      signal?.addEventListener('abort', () => this.abort(job), { once: true });
      this.queue.push(job);
      this.start();
      this.dispatch();
    });
  }

  private start(): void {
    if (this.worker || this.closed) return;
    this.ready = false;
    this.garbageAtStart = this.hooks.wear().garbage;
    const worker = startThread(WORKER_URL, { workerData: this.hooks.plan() });
    this.worker = worker;
    worker.on('message', (msg: ReplicaOut) => this.receive(worker, msg));
    worker.on('error', (e) => {
      this.hooks.log(e);
      this.replace(worker, new ServiceUnavailable('the SPARQL worker failed', { cause: e, retryAfterSeconds: 1 }));
    });
    worker.on('exit', () => this.replace(worker, new ServiceUnavailable('the SPARQL worker stopped', { retryAfterSeconds: 1 })));
  }

  private receive(worker: Worker, msg: ReplicaOut): void {
    if (worker !== this.worker) return;
    if (msg.type === 'ready') {
      this.ready = true;
      this.hooks.loaded();
      this.dispatch();
      return;
    }
    const running = this.running;
    if (!running || running.job.id !== msg.id) return;
    clearTimeout(running.timer);
    this.running = undefined;
    if (msg.type === 'result') running.job.resolve(msg.body);
    else running.job.reject(new BadRequest(`the query cannot be evaluated: ${msg.message}`, { code: ERR.SparqlSyntaxError }));
    if (msg.type === 'error' && msg.fatal) {
      // The worker's store crashed and would fail every later query: load a fresh one.
      this.worker = undefined;
      void worker.terminate();
      this.start();
    }
    this.dispatch();
    this.recycleIfIdle();
  }

  private dispatch(): void {
    if (!this.worker || !this.ready || this.running) return;
    const job = this.queue.shift();
    if (!job) return;
    const timer = setTimeout(() => this.timeout(job), this.timeoutMs);
    this.running = { job, timer };
    this.worker.postMessage({ type: 'query', id: job.id, ...job.request } satisfies ReplicaIn);
  }

  private timeout(job: Job): void {
    const error = new ServiceUnavailable(`the query ran longer than the limit of ${this.timeoutMs} ms and was stopped`, {
      code: ERR.QueryTimeout,
      details: 'Narrow the query (LIMIT, more selective patterns), or ask the operator for a larger SPARQL_TIMEOUT_MS.',
    });
    this.kill(job, error);
  }

  private abort(job: Job): void {
    const queued = this.queue.indexOf(job);
    if (queued >= 0) {
      this.queue.splice(queued, 1);
      job.reject(new ServiceUnavailable('the client went away'));
    } else if (this.running?.job === job) {
      this.kill(job, new ServiceUnavailable('the client went away'));
    }
  }

  /** Stops the running query the only way possible: a new worker. */
  private kill(job: Job, error: Error): void {
    if (this.running?.job !== job) return;
    clearTimeout(this.running.timer);
    this.running = undefined;
    job.reject(error);
    const old = this.worker;
    this.worker = undefined;
    void old?.terminate();
    if (this.queue.length > 0) this.start();
  }

  /** The worker died on its own: fail what it was running, carry on with a new one. */
  private replace(worker: Worker, error: Error): void {
    if (worker !== this.worker) return;
    this.worker = undefined;
    if (!this.ready) {
      // It could not even load: retrying at once would only fail again, so answer what
      // waits and let the next query try afresh.
      this.hooks.loaded();
      for (const job of this.queue.splice(0)) job.reject(error);
      return;
    }
    if (this.running) {
      clearTimeout(this.running.timer);
      this.running.job.reject(error);
      this.running = undefined;
    }
    if (this.queue.length > 0) this.start();
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new ServiceUnavailable('the store is closing'));
    if (this.running) this.kill(this.running.job, new ServiceUnavailable('the store is closing'));
    const worker = this.worker;
    this.worker = undefined;
    await worker?.terminate();
  }
}
