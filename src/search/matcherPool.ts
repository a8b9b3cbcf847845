// Service side of the substructure matcher: child processes that run one chunk of
// candidates at a time. A chunk that outlives the search's remaining time gets its
// process killed (WASM cannot be interrupted otherwise) and a fresh one replaces it.
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

interface Pending {
  job: MatchJob;
  timeoutMs: number;
  resolve: (result: MatchResult) => void;
  reject: (e: Error) => void;
}

const SCRIPT = threadModule('../chem/substructWorker.ts', import.meta.url);

/** One matcher process and its queue; jobs run one at a time. */
class MatchWorker {
  private worker: ChildProcess | undefined;
  private ready: Promise<void> | undefined;
  private readonly queue: Pending[] = [];
  private running: Pending | undefined;
  private timer: NodeJS.Timeout | undefined;

  get load(): number {
    return this.queue.length + (this.running ? 1 : 0);
  }

  run(job: MatchJob, timeoutMs: number): Promise<MatchResult> {
    return new Promise((resolve, reject) => {
      this.queue.push({ job, timeoutMs, resolve, reject });
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
    this.timer = setTimeout(() => {
      if (this.running !== task) return;
      void this.close();
      this.fail(new MatchTimeout(task.timeoutMs));
    }, Math.max(1, task.timeoutMs));
    this.worker!.send(task.job);
  }

  private finish(result: MatchResult): void {
    const task = this.running;
    if (!task || task.job.id !== result.id) return;
    clearTimeout(this.timer);
    this.running = undefined;
    if (result.error) task.reject(new Error(result.error));
    else task.resolve(result);
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
  private nextId = 1;

  /** `moleculeCache`: molecules each matcher keeps parsed between jobs (0: none). */
  constructor(size: number, private readonly moleculeCache = 0) {
    this.workers = Array.from({ length: Math.max(1, size) }, () => new MatchWorker());
  }

  get size(): number {
    return this.workers.length;
  }

  /**
   * Indexes (into `slots`) of the candidates that contain the query; `pickles` answers the
   * molecules of some slots. Matcher `slot % size` gets each, so a slot always goes to the
   * matcher that may have its molecule parsed already; they all match at once. Matchers that
   * keep molecules are first asked without pickles, then sent only those of the candidates
   * they do not keep (reading and sending a pickle costs about what matching it does).
   */
  async match(kind: QueryKind, text: string, slots: Int32Array, pickles: (slots: Int32Array) => readonly Uint8Array[], timeoutMs: number): Promise<Uint32Array> {
    const n = this.workers.length;
    const deadline = performance.now() + timeoutMs;
    const shares: number[][] = Array.from({ length: n }, () => []);
    for (let i = 0; i < slots.length; i++) shares[slots[i]! % n]!.push(i);
    const parts = await Promise.all(shares.map(async (share, w) => {
      if (share.length === 0) return [];
      const worker = this.workers[w]!;
      const found: number[] = [];
      let todo = share;
      if (this.moleculeCache > 0) {
        const kept = await worker.run(this.job(kind, text, Int32Array.from(share, (i) => slots[i]!)), timeoutMs);
        for (const k of kept.value!) found.push(share[k]!);
        todo = Array.from(kept.missing!, (k) => share[k]!);
        if (todo.length === 0) return found;
      }
      const own = Int32Array.from(todo, (i) => slots[i]!);
      const matched = (await worker.run(this.job(kind, text, own, pickles(own)), Math.max(1, deadline - performance.now()))).value!;
      for (const k of matched) found.push(todo[k]!);
      return found;
    }));
    return Uint32Array.from(parts.flat()).sort();
  }

  /** A job for `slots`; without `pickles`, one that matches the molecules kept only. */
  private job(kind: MatchJob['kind'], text: string, slots: Int32Array, pickles?: readonly Uint8Array[]): MatchJob {
    if (!pickles) return { id: this.nextId++, kind, text, keep: this.moleculeCache, slots };
    const total = pickles.reduce((n, p) => n + p.byteLength, 0);
    const packed = new Uint8Array(total);
    const ends = new Uint32Array(pickles.length);
    let pos = 0;
    pickles.forEach((p, i) => {
      packed.set(p, pos);
      pos += p.byteLength;
      ends[i] = pos;
    });
    return { id: this.nextId++, kind, text, keep: this.moleculeCache, slots, pickles: packed, ends };
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.close()));
  }
}
