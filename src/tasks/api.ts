// The job API every long operation uses: dataset upload, algorithm apply,
// model prediction, 3D generation. Jobs are registered by kind and submitted with JSON
// parameters, so a Queued task can be run again after a restart.
import type { Reply } from '../http/reply.ts';

export type TaskStatus = 'Queued' | 'Running' | 'Completed' | 'Cancelled' | 'Error';

export interface JobContext {
  /** Aborted when the task is cancelled (DELETE /task/{id}) or the service stops. */
  signal: AbortSignal;
  /** Reports progress in percent (0-100); writes are throttled by the engine. */
  progress: (percent: number) => void;
  taskUri: string;
  /** The user the task runs for (a job acts with its creator's rights). */
  owner?: string;
  /** The caller's token, passed on to remote services. */
  subjectid?: string;
  /** TaskEngine.runInWorker with this job's signal, so cancelling the task stops the worker. */
  runInWorker: <T>(module: URL | string, fn: string, input: unknown, options?: WorkerOptions) => Promise<T>;
}

export interface WorkerOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  /**
   * Receives the percentages the worker function reports through its second argument
   * (`fn(input, { progress })`); pass `ctx.progress` to show them on the task.
   */
  onProgress?: (percent: number) => void;
  /** A client waits on it in its request: it runs in the request threads, at the event loop's priority, not behind jobs. */
  urgent?: boolean;
}

/** URI(s) of the resource(s) a job created (ot:resultURI). */
export type JobResult = string | string[];

export interface JobDefinition<P = unknown> {
  kind: string;
  /** True when running it twice gives the same result: then an interrupted run is re-run. */
  idempotent: boolean;
  run: (params: P, ctx: JobContext) => Promise<JobResult>;
  /**
   * Removes what a task of this kind holds for its job (an upload's saved body) once the
   * task is cancelled: a cancelled task never runs again (SPEC §3), so nothing else would.
   * Called after the job has stopped, by the process that ran it, or by the one that
   * cancelled it while it waited; it may be called twice for one task.
   */
  discard?: (params: P) => Promise<void>;
}

export interface TaskMeta {
  title: string;
  /** URI of the resource where the task was created (dc:creator, SPEC §2.4). */
  creator: string;
  description?: string;
  owner?: string;
  /**
   * The caller's token, handed to the job in memory only (never stored: a job queued before
   * a restart runs without it). Pass it here, not in the parameters, where it is dropped.
   */
  subjectid?: string;
  /**
   * Whom the per-client job quota counts the job against (`Caller.client`); absent for the
   * jobs the service submits itself, which count against no one.
   */
  client?: string;
}

export interface TaskInfo {
  uri: string;
  /** Resource where the task was created (dc:creator). */
  creator: string;
  /** The user the task runs for, when it was submitted with one (access checks, SPEC §5). */
  owner?: string;
  status: TaskStatus;
  percentageCompleted: number;
  resultUris: string[];
}

export interface TaskEngine {
  define<P>(definition: JobDefinition<P>): void;
  /** Queues a job; throws ServiceUnavailable (503, Retry-After) when the queue is full. */
  submit<P>(kind: string, params: P, meta: TaskMeta): Promise<TaskInfo>;
  /**
   * The reply of a resource that started a job (SPEC §4.3 "Creating a task"): waits up to
   * the configured sync window, then answers 200 with the result or 202 with the task.
   */
  reply(task: TaskInfo): Promise<Reply>;
  /**
   * The one call a route makes to run a long operation as a task: submit, then reply.
   * Status codes and error reports are then the same for every resource.
   */
  runAsTask<P>(kind: string, params: P, meta: TaskMeta): Promise<Reply>;
  /** Runs `fn(input)` exported by `module` in the worker pool, off the event loop. */
  runInWorker<T>(module: URL | string, fn: string, input: unknown, options?: WorkerOptions): Promise<T>;
  /** The task's current state, or undefined when no task has this URI. */
  get(uri: string): Promise<TaskInfo | undefined>;
  /**
   * Cancels a Queued or Running task (its job's signal is aborted, a worker is terminated);
   * a finished task is returned unchanged. Undefined when no task has this URI.
   */
  cancel(uri: string): Promise<TaskInfo | undefined>;
  /** Resolves with the task once it is final, or as it is after `timeoutMs`. */
  settled(uri: string, timeoutMs: number): Promise<TaskInfo | undefined>;
}
