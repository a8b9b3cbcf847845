// A task while this process runs its job: the job, the caller's token (never stored:
// SPEC §5), and what waits on it.
import type { TaskRecord } from './tasks.ts';
import type { JobContext, JobDefinition } from './api.ts';
import type { WorkerPool } from './workerPool.ts';
import { Throttle } from './throttle.ts';

/** At most one progress write per task in this interval. */
export const PROGRESS_INTERVAL_MS = 500;

export class LiveJob {
  readonly controller = new AbortController();
  readonly throttle: Throttle;
  /** Resolves once the task's final state is written (what a waiting client needs). */
  readonly settled: Promise<void>;
  settle!: () => void;
  /** Resolves once the job function itself has returned (what shutdown waits for). */
  readonly finished: Promise<void>;
  finish!: () => void;
  /** The chain of this task's store writes, so they land in order. */
  writes: Promise<void> = Promise.resolve();

  constructor(
    readonly record: TaskRecord,
    readonly definition: JobDefinition<unknown>,
    readonly subjectid: string | undefined,
    flushProgress: (job: LiveJob) => void,
  ) {
    this.settled = new Promise((r) => (this.settle = r));
    this.finished = new Promise((r) => (this.finish = r));
    this.throttle = new Throttle(PROGRESS_INTERVAL_MS, () => flushProgress(this));
  }

  /** What the job function gets: its signal, progress (throttled writes) and the pool. */
  context(pool: WorkerPool): JobContext {
    const own = this.controller.signal;
    return {
      signal: own,
      progress: (percent) => {
        const p = Math.min(100, Math.max(0, percent));
        // SPEC §2.4: percentageCompleted only grows, and only while Running.
        if (this.record.status !== 'Running' || !(p > this.record.percentageCompleted)) return;
        this.record.percentageCompleted = p;
        this.throttle.request();
      },
      taskUri: this.record.uri,
      owner: this.record.owner,
      subjectid: this.subjectid,
      runInWorker: (module, fn, input, options = {}) =>
        pool.run(module, fn, input, { ...options, signal: options.signal ? AbortSignal.any([options.signal, own]) : own }),
    };
  }
}
