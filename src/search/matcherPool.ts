// Service side of the substructure matcher: child processes that run one chunk of
// candidates at a time. A chunk that outlives the search's remaining time gets its
// process killed (WASM cannot be interrupted otherwise) and a fresh one replaces it.
// Each matcher keeps the molecules it parsed; the service records which from its answers
// and sends a chunk with the pickles of the others only, in one message.
import type { ChildProcess } from 'node:child_process';
import type { QueryKind } from '../chem/smarts.ts';
import type { MatchJob, MatchResult } from '../chem/substructWorker.ts';
import { startProcess, threadModule } from '../threads/threadModule.ts';

export class MatchTimeout extends Error {
  constructor(readonly limitMs: number) {
    super(`substructure matching exceeded its time limit of ${limitMs} ms`);
    this.name = 'MatchTimeout';
  }
}

/** One matcher's share of a batch: its candidates' slots and where their pickles are read. */
interface Share {
  kind: QueryKind;
  text: string;
  slots: Int32Array;
  pickles: (slots: Int32Array) => readonly Uint8Array[];
}

interface Pending {
  share: Share;
  timeoutMs: number;
  resolve: (found: Uint32Array) => void;
  reject: (e: Error) => void;
}

/** A share as sent: the job, where its candidates are in the share, the slots sent with pickles. */
interface Sent {
  job: MatchJob;
  order: Uint32Array;
  fresh: Int32Array;
}

const SCRIPT = threadModule('../chem/substructWorker.ts', import.meta.url);

/** One matcher process and its queue; jobs run one at a time. */
class MatchWorker {
  private worker: ChildProcess | undefined;
  private ready: Promise<void> | undefined;
  private readonly queue: Pending[] = [];
  private running: (Pending & { sent?: Sent }) | undefined;
  private timer: NodeJS.Timeout | undefined;
  private nextId = 1;
  /**
   * Slots whose molecules the process keeps, from its answers (a job is built when it is sent,
   * after the last one's answer). The process may keep more (this is cleared after an error), never fewer.
   */
  private readonly kept = new Set<number>();

  /** `keep`: molecules the process keeps parsed between jobs (0: none). */
  constructor(private readonly keep: number) {}

  get load(): number {
    return this.queue.length + (this.running ? 1 : 0);
  }

  /** Indexes (into `share.slots`) of the candidates that contain the query. */
  run(share: Share, timeoutMs: number): Promise<Uint32Array> {
    return new Promise((resolve, reject) => {
      this.queue.push({ share, timeoutMs, resolve, reject });
      void this.pump();
    });
  }

  async close(): Promise<void> {
    const w = this.worker;
    this.worker = undefined;
    this.ready = undefined;
    if (w && w.exitCode === null) {
      const exited = new Promise((resolve) => w.once('exit', resolve));
      // An idle matcher is unref'd; waiting for its exit must keep the process alive.
      w.ref();
      w.kill('SIGKILL');
      await exited;
    }
  }

  private start(): Promise<void> {
    const worker = startProcess(SCRIPT, { serialization: 'advanced', stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    this.worker = worker;
    this.kept.clear();
    this.ready = new Promise((resolve, reject) => {
      let ready = false;
      const onReady = (m: { ready?: boolean }) => {
        if (!m.ready) return;
        ready = true;
        worker.off('message', onReady);
        worker.on('message', (r: MatchResult) => this.finish(r));
        resolve();
      };
      // Before it is ready, pump() reports a failure; afterwards the running job fails.
      const died = (e: Error) => {
        if (this.worker !== worker) return;
        if (ready) this.fail(e);
        else reject(e);
      };
      worker.on('message', onReady);
      worker.once('error', died);
      worker.once('exit', (code, signal) => died(new Error(`substructure matcher exited (${signal ?? code})`)));
    });
    return this.ready;
  }

  /** An idle matcher must not keep the service's process alive; a busy one must. */
  private hold(busy: boolean): void {
    if (busy) this.worker?.ref();
    else this.worker?.unref();
    const channel = this.worker?.channel;
    if (busy) channel?.ref();
    else channel?.unref();
  }

  private async pump(): Promise<void> {
    if (this.running || this.queue.length === 0) return this.hold(false);
    this.running = this.queue.shift()!;
    try {
      const starting = this.ready ?? this.start();
      this.hold(true);
      await starting;
    } catch (e) {
      return this.fail(e as Error);
    }
    const task = this.running;
    try {
      task.sent = this.jobOf(task.share);
    } catch (e) {
      // Reading the pickles failed: the process is as it was.
      this.running = undefined;
      task.reject(e as Error);
      return void this.pump();
    }
    this.timer = setTimeout(() => {
      if (this.running !== task) return;
      void this.close();
      this.fail(new MatchTimeout(task.timeoutMs));
    }, Math.max(1, task.timeoutMs));
    this.worker!.send(task.sent.job);
  }

  /**
   * The job of a share: the pickles of the candidates the process does not keep, none of those
   * it does. Removed compounds (an empty pickle, not kept) are left out: they match nothing.
   */
  private jobOf(share: Share): Sent {
    const { slots } = share;
    const missing: number[] = [];
    for (let i = 0; i < slots.length; i++) if (!this.kept.has(slots[i]!)) missing.push(i);
    const read = share.pickles(Int32Array.from(missing, (i) => slots[i]!));
    const packed = new Uint8Array(read.reduce((n, p) => n + p.byteLength, 0));
    const order: number[] = [];
    const ends: number[] = [];
    const fresh: number[] = [];
    let pos = 0;
    for (let i = 0, m = 0; i < slots.length; i++) {
      if (missing[m] === i) {
        const pickle = read[m++]!;
        if (pickle.byteLength === 0) continue;
        packed.set(pickle, pos);
        pos += pickle.byteLength;
        fresh.push(slots[i]!);
      }
      order.push(i);
      ends.push(pos);
    }
    const job: MatchJob = { id: this.nextId++, kind: share.kind, text: share.text, keep: this.keep, slots: Int32Array.from(order, (i) => slots[i]!), pickles: packed, ends: Uint32Array.from(ends) };
    return { job, order: Uint32Array.from(order), fresh: Int32Array.from(fresh) };
  }

  private finish(result: MatchResult): void {
    const task = this.running;
    const sent = task?.sent;
    if (!task || !sent || sent.job.id !== result.id) return;
    clearTimeout(this.timer);
    this.running = undefined;
    if (result.error) {
      // The process may have kept or dropped molecules before it failed.
      this.kept.clear();
      task.reject(new Error(result.error));
    } else {
      if (this.keep > 0) {
        for (const slot of sent.fresh) this.kept.add(slot);
        for (const slot of result.dropped!) this.kept.delete(slot);
      }
      task.resolve(Uint32Array.from(result.value!, (k) => sent.order[k]!));
    }
    void this.pump();
  }

  private fail(e: Error): void {
    clearTimeout(this.timer);
    const task = this.running;
    this.running = undefined;
    if (!(e instanceof MatchTimeout)) {
      this.worker = undefined;
      this.ready = undefined;
    }
    task?.reject(e);
    void this.pump();
  }
}

export class MatcherPool {
  private readonly workers: MatchWorker[];

  /** `moleculeCache`: molecules each matcher keeps parsed between jobs (0: none). */
  constructor(size: number, moleculeCache = 0) {
    this.workers = Array.from({ length: Math.max(1, size) }, () => new MatchWorker(moleculeCache));
  }

  get size(): number {
    return this.workers.length;
  }

  /**
   * Indexes (into `slots`) of the candidates that contain the query; `pickles` answers the
   * molecules of some slots. Matcher `slot % size` gets each, so a slot always goes to the
   * matcher that may have its molecule parsed already; they all match at once.
   */
  async match(kind: QueryKind, text: string, slots: Int32Array, pickles: (slots: Int32Array) => readonly Uint8Array[], timeoutMs: number): Promise<Uint32Array> {
    const n = this.workers.length;
    const shares: number[][] = Array.from({ length: n }, () => []);
    for (let i = 0; i < slots.length; i++) shares[slots[i]! % n]!.push(i);
    const parts = await Promise.all(shares.map(async (share, w) => {
      if (share.length === 0) return [];
      const found = await this.workers[w]!.run({ kind, text, slots: Int32Array.from(share, (i) => slots[i]!), pickles }, timeoutMs);
      return Array.from(found, (k) => share[k]!);
    }));
    return Uint32Array.from(parts.flat()).sort();
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.close()));
  }
}
