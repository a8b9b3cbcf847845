// The main thread's side of the store thread (storeThread.ts): each call is one message and
// its answer. Calls are answered in the order the thread takes them; a thread that traps,
// fails or exits fails every call still waiting, and every later one, as fatal.
import type { Worker } from 'node:worker_threads';
import { firstMessage, startThread, threadModule } from '../../threads/threadModule.ts';
import type { ReplayPlan } from './layout.ts';
import type { JournalRecord } from '../writeOps.ts';
import type { StoreIn, StoreOut, StoreRead } from './storeThread.ts';

const THREAD_URL = threadModule('./storeThread.ts', import.meta.url);

/** What the thread found when it loaded the store's files. */
export type Loaded = Extract<StoreOut, { type: 'ready' }>;

/** A call the thread refused; `fatal` when its Oxigraph instance trapped. */
export class ThreadCallError extends Error {
  constructor(message: string, readonly fatal: boolean) {
    super(message);
  }
}

interface Waiting {
  resolve: (value: unknown) => void;
  reject: (e: Error) => void;
}

export class OxThread {
  private readonly waiting = new Map<number, Waiting>();
  private nextId = 1;
  private dead: ThreadCallError | undefined;

  private constructor(private readonly worker: Worker) {
    worker.on('message', (msg: StoreOut) => {
      if (msg.type === 'ready') return;
      const w = this.waiting.get(msg.id);
      if (!w) return;
      this.waiting.delete(msg.id);
      if (msg.type === 'done') return w.resolve(msg.value);
      const e = new ThreadCallError(msg.message, msg.fatal);
      // After a trap the instance's memory cannot be trusted, for reads as for writes.
      if (e.fatal) this.dead ??= e;
      w.reject(e);
    });
    const fail = (e: Error) => {
      this.dead ??= new ThreadCallError(e.message, true);
      for (const w of this.waiting.values()) w.reject(this.dead);
      this.waiting.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`the store thread exited with code ${code}`)));
  }

  /** Starts the thread on `plan`'s files; resolves once they are loaded. */
  static async start(plan: ReplayPlan): Promise<{ thread: OxThread; loaded: Loaded }> {
    const worker = startThread(THREAD_URL, { workerData: plan });
    const loaded = await firstMessage<Loaded>(worker);
    return { thread: new OxThread(worker), loaded };
  }

  read<T>(read: StoreRead): Promise<T> {
    return this.call({ type: 'read', id: 0, read }) as Promise<T>;
  }

  apply(record: JournalRecord): Promise<void> {
    return this.call({ type: 'apply', id: 0, record }) as Promise<void>;
  }

  rebuild(): Promise<{ rebuilt: boolean; quads: number }> {
    return this.call({ type: 'rebuild', id: 0 }) as Promise<{ rebuilt: boolean; quads: number }>;
  }

  private call(msg: StoreIn): Promise<unknown> {
    if (this.dead) return Promise.reject(this.dead);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.worker.postMessage({ ...msg, id });
    });
  }

  async close(): Promise<void> {
    this.dead ??= new ThreadCallError('the store is closed', true);
    await this.worker.terminate();
  }
}
