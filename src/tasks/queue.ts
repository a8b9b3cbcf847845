// Where Queued jobs wait for a process to run them (DESIGN: the job engine). The task
// itself (status, progress, result) always lives in the store, so any API process answers
// for any task; a queue only carries "run task T of kind K" to some process.
export interface QueuedJob {
  /** The task's URI; its parameters are in its graph. */
  taskUri: string;
  kind: string;
  /** True when running it twice gives the same result: then an interrupted run is re-run. */
  idempotent: boolean;
  /**
   * The caller's token, for a job that calls remote services with it (SPEC §5). Never in the
   * store; in Redis it lives only in the job's entry, which is deleted when the job ends.
   */
  subjectid?: string;
}

export interface Delivery {
  job: QueuedJob;
  /** Aborted when the task is cancelled from any process, or this process stops. */
  signal: AbortSignal;
  /** True when an earlier run of this job was interrupted (its process died). */
  redelivered: boolean;
}

export interface JobQueue {
  /**
   * True when other processes take jobs from it too (Redis): a start recovers nothing, since
   * a job the last process left may run elsewhere, and the queue hands back a dead worker's.
   */
  readonly distributed: boolean;
  /** Hands a job to the queue; throws ServiceUnavailable (503, Retry-After) when it cannot. */
  enqueue(job: QueuedJob): Promise<void>;
  /**
   * Stops the job wherever it runs, or drops it while it waits. True when it was dropped
   * waiting: then no process will run it, and the caller discards what it holds.
   */
  cancel(taskUri: string): Promise<boolean>;
  /**
   * Starts taking jobs, at most `concurrency` at a time, and runs each with `run`.
   * `abandoned` hears of a job the queue gave up on (handed back too often), by task id.
   */
  consume(run: (delivery: Delivery) => Promise<void>, concurrency: number, abandoned?: (taskId: string) => Promise<void>): void;
  close(): Promise<void>;
}
