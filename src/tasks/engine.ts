// The job engine: tasks queued on a JobQueue and run at most `concurrency` at a time, each
// job with an AbortSignal and throttled progress. The store holds every task
// (src/tasks/tasks.ts); this holds only the live ones, so a restart loses nothing but the
// jobs' in-flight work (src/tasks/recovery.ts). The queue is a FIFO in memory
// (localQueue.ts), or with REDIS_URL one that every process shares (src/tasks/redis/):
// either way it carries "run task T" to deliver(), which reads the task from the store.
import { REQUEST_THREAD_IDLE_MS, REQUEST_THREADS, workerThreads, type Config } from '../config.ts';
import { uriOf } from '../deps.ts';
import { HttpError, InternalError, NotFound, ServiceUnavailable } from '../errors.ts';
import type { Reply } from '../http/reply.ts';
import { reportOf } from '../http/errorReport.ts';
import { ERR } from '../rdf/vocab.ts';
import type { Store } from '../store/api.ts';
import { isValidIri } from '../store/binder.ts';
import { infoOf, readTask, taskQuads, type TaskRecord } from './tasks.ts';
import { taskReply } from './taskReply.ts';
import type { JobDefinition, JobResult, TaskEngine, TaskInfo, TaskMeta, WorkerOptions } from './api.ts';
import { uuidv7 } from './ids.ts';
import { markInterrupted, purgeTasks, recoverTasks } from './recovery.ts';
import { advance, isFinal, transition } from './stateMachine.ts';
import { IDLE_THREAD_MS, WorkerPool } from './workerPool.ts';
import { withFetchBudget } from '../http/outbound/budget.ts';
import { LiveJob } from './liveJob.ts';
import { TaskWriter } from './taskWriter.ts';
import { JobQuota } from './quota.ts';
import { forgetOwner, recordOwner, recordOwners } from '../auth/owners.ts';
import type { Logger } from '../logger.ts';
import type { Delivery, JobQueue, QueuedJob } from './queue.ts';
import { LocalQueue } from './localQueue.ts';
import { RedisQueue } from './redis/redisQueue.ts';

// What a job's end does to its task (SPEC §3): Running → Completed with ot:resultURI, or
// Running → Error with the report of what it threw (an HttpError keeps its status, any
// other error is a 500 TaskFailed carrying its message).
function move(t: TaskRecord, event: 'complete' | 'fail'): void {
  t.status = transition(t.status, event) ?? t.status;
  if (isFinal(t.status)) t.ended = new Date();
}

/** Marks `t` Error with the report of `failure`. True when the failure was unexpected (worth logging). */
function failTask(t: TaskRecord, failure: unknown, debug: boolean): boolean {
  const known = failure instanceof HttpError;
  const message = (failure as Error | undefined)?.message || String(failure);
  const err = known ? failure : new InternalError(message, { code: ERR.TaskFailed, cause: failure });
  move(t, 'fail');
  t.error = reportOf(err, t.creator, debug);
  t.description ??= t.error.message;
  return !known;
}

/** Marks `t` Completed with the URI(s) a job returned; anything but URIs fails it instead. */
function completeTask(t: TaskRecord, result: JobResult | undefined, debug: boolean): void {
  const uris = Array.isArray(result) ? result : [result];
  const bad = uris.find((u) => typeof u !== 'string' || !isValidIri(u));
  if (bad !== undefined) {
    failTask(t, new InternalError(`job ${t.kind} returned an invalid result URI: ${JSON.stringify(bad)}`), debug);
    return;
  }
  move(t, 'complete');
  t.resultUris = uris as string[];
  t.percentageCompleted = 100;
}

export interface EngineDeps {
  config: Config;
  store: Store;
  logger: Logger;
}

export interface EngineOptions {
  /** 'worker': a `npm run worker` process, which takes jobs from the shared queue whatever WORKERS says. */
  role?: 'api' | 'worker';
}

/** How often the store is read while a client waits for a task whose job this process does not run. */
const POLL_MS = 100;

/** How long the threads of a process that takes no jobs are kept while idle. */
const NO_JOBS_IDLE_MS = 30_000;
/** How long close() lets aborted jobs wind down before the store closes. */
const CLOSE_GRACE_MS = 2000;
/** Retry-After of a submission refused because the service stops (SPEC §3 Rejected). */
const RETRY_AFTER_S = 10;

/** A job's parameters, as stored with its task (throws when unreadable). */
const paramsOf = (record: TaskRecord): unknown => JSON.parse(record.params);

/**
 * Parameters as stored with the task: tokens are dropped wherever they sit (no subjectid in
 * the store, whose SPARQL endpoint is public). The job gets the token beside them (LiveJob).
 */
const storedParams = (params: unknown): string => JSON.stringify(params ?? null, (k, v: unknown) => (/^subjectid$/i.test(k) ? undefined : v));

/** What the queue carries for a stored task (and the caller's token, which is never stored). */
const queuedJob = (record: TaskRecord, subjectid?: string): QueuedJob => ({ taskUri: record.uri, kind: record.kind, idempotent: record.idempotent, subjectid });

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref());

export class JobEngine implements TaskEngine {
  readonly pool: WorkerPool;
  /** Threads for work a client waits on in its request (WorkerOptions.urgent). */
  private readonly requestPool = new WorkerPool(REQUEST_THREADS, undefined, REQUEST_THREAD_IDLE_MS, false);
  readonly concurrency: number;
  readonly queue: JobQueue;
  private readonly definitions = new Map<string, JobDefinition<unknown>>();
  /** Jobs this process runs, by task URI. */
  private readonly jobs = new Map<string, LiveJob>();
  /** False for an API process of the distributed mode given WORKERS=0: it runs no jobs. */
  private readonly consumes: boolean;
  /** Recovered Queued tasks whose job kind no module has defined yet. */
  private readonly parked = new Map<string, TaskRecord>();
  private stopping = false;
  private readonly writer: TaskWriter;
  private purgeTimer: NodeJS.Timeout | undefined;
  /** Live jobs per client (JOB_QUOTA): one client cannot fill the shared queue. */
  private readonly quota = new JobQuota();

  constructor(private readonly deps: EngineDeps, options: EngineOptions = {}) {
    const { redisUrl, jobLockMs } = deps.config;
    this.queue = redisUrl
      ? new RedisQueue({ url: redisUrl, lockDurationMs: jobLockMs, stalledIntervalMs: Math.max(100, Math.round(jobLockMs / 2)) })
      : new LocalQueue(deps.config.queueLength);
    this.consumes = !this.queue.distributed || options.role === 'worker' || deps.config.workers > 0;
    // A process that takes no jobs (an API process beside worker processes) needs its threads
    // only to parse a small upload now and then: they are not started ahead and go soon after.
    this.pool = new WorkerPool(workerThreads(deps.config), undefined, this.consumes ? IDLE_THREAD_MS : NO_JOBS_IDLE_MS);
    this.concurrency = deps.config.taskConcurrency || 2 * this.pool.size;
    this.writer = new TaskWriter(deps.store, deps.logger, () => this.stopping);
  }

  /**
   * Settles what the last process left (recovery.ts), starts taking jobs and starts the
   * retention purge. With a shared queue other processes may be running the unfinished
   * tasks, so nothing is recovered here: the queue hands back the job of a worker that died.
   */
  async start(): Promise<void> {
    if (!this.queue.distributed) for (const t of await recoverTasks(this.deps.store)) await this.queue.enqueue(queuedJob(t));
    if (this.consumes) this.queue.consume((d) => this.deliver(d), this.concurrency, (id) => this.abandon(id));
    const hours = this.deps.config.taskRetentionHours;
    if (hours > 0) {
      const retentionMs = hours * 3_600_000;
      const purge = () => purgeTasks(this.deps.store, new Date(Date.now() - retentionMs), (u) => this.jobs.has(u)).catch((e: unknown) => this.deps.logger.error({ err: e }, 'task purge failed'));
      this.purgeTimer = setInterval(() => void purge(), Math.min(Math.max(retentionMs / 4, 100), 600_000));
      this.purgeTimer.unref();
      await purge();
    }
  }

  define<P>(definition: JobDefinition<P>): void {
    this.definitions.set(definition.kind, definition as JobDefinition<unknown>);
    for (const t of [...this.parked.values()]) {
      if (t.kind !== definition.kind) continue;
      this.parked.delete(t.uri);
      this.queue.enqueue(queuedJob(t)).catch((err: unknown) => this.deps.logger.error({ err, task: t.uri }, 'could not queue a recovered task'));
    }
  }

  async submit<P>(kind: string, params: P, meta: TaskMeta): Promise<TaskInfo> {
    const definition = this.definitions.get(kind);
    if (!definition) throw new Error(`no job of kind "${kind}" is defined`);
    if (this.stopping) throw new ServiceUnavailable('the service is stopping', { retryAfterSeconds: RETRY_AFTER_S });
    const record: TaskRecord = {
      uri: uriOf(this.deps.config, `/task/${uuidv7()}`),
      creator: meta.creator,
      status: 'Queued',
      date: new Date(),
      title: meta.title,
      description: meta.description,
      percentageCompleted: 0,
      resultUris: [],
      kind,
      params: storedParams(params),
      owner: meta.owner,
      idempotent: definition.idempotent,
    };
    if (meta.client !== undefined) this.quota.acquire(meta.client, record.uri, this.deps.config.jobQuota);
    try {
      await this.deps.store.replaceGraph(record.uri, taskQuads(record));
      // A task is its creator's (SPEC §5.2: access to tasks is restricted).
      await recordOwner(this.deps, record.uri, meta.owner);
      await this.share(record, meta.subjectid);
    } catch (e) {
      this.quota.release(record.uri);
      throw e;
    }
    return infoOf(record);
  }

  /** Hands a stored Queued task to the queue; when the queue refuses it, the task is removed and the 503 stands. */
  private async share(record: TaskRecord, subjectid: string | undefined): Promise<void> {
    try {
      await this.queue.enqueue(queuedJob(record, subjectid));
    } catch (e) {
      // Not accepted, so not kept: a task left Queued would wait for a job nobody has.
      await Promise.all([this.deps.store.dropGraph(record.uri), forgetOwner(this.deps, record.uri)])
        .catch((err: unknown) => this.deps.logger.error({ err, task: record.uri }, 'could not remove a task the queue refused'));
      throw e;
    }
  }

  /**
   * Runs a job the queue hands to this process, as its task in the store says: one final
   * already (cancelled while it waited) is skipped; one Running was started by a process
   * that died (a shared queue hands it back), so SPEC §3's rule for restarts applies (an
   * idempotent job runs again, any other ends as Error TaskInterrupted). Resolves once the
   * task's final state is written; never for a job stopped by shutdown.
   */
  private async deliver({ job, signal }: Delivery): Promise<void> {
    const { store, logger, config } = this.deps;
    const record = (await readTask(store, job.taskUri))?.record;
    // Handed out as the process began to stop: the task stays as stored, for the next start
    // or (a shared queue) another worker once the lock lapses.
    if (this.stopping) await new Promise<never>(() => {});
    if (!record || isFinal(record.status)) {
      // Cancelled while it waited, but handed out before the queue could drop it.
      if (record?.status === 'Cancelled') await this.discard(record);
      return;
    }
    if (record.status === 'Running') {
      if (!record.idempotent) {
        markInterrupted(record);
        logger.warn({ task: record.uri, kind: record.kind }, 'task interrupted: the process running it stopped');
        await store.replaceGraph(record.uri, taskQuads(record));
        return;
      }
      record.status = transition(record.status, 'requeue')!;
      record.percentageCompleted = 0;
    }
    const definition = this.definitions.get(record.kind);
    if (!definition && !this.queue.distributed) {
      // Recovered at start before a module defined its kind: it runs once one does (define).
      this.parked.set(record.uri, record);
      return;
    }
    if (!definition) {
      failTask(record, new Error(`this worker defines no job of kind "${record.kind}"`), config.debug);
      await store.replaceGraph(record.uri, taskQuads(record));
      return;
    }
    const live = new LiveJob(record, definition, job.subjectid, (j) => {
      if (j.record.status === 'Running') void this.writer.write(j);
    });
    // Cancelled where the job was not held (cancelQueued): Cancelled is written; this process
    // stops the job and writes Cancelled again after its own writes, so a late progress
    // write cannot undo it.
    const cancelled = () => {
      if (!advance(live.record, 'cancel')) return;
      live.throttle.stop();
      live.controller.abort(new ServiceUnavailable('the task was cancelled'));
      void this.writer.write(live);
    };
    if (signal.aborted) cancelled();
    else signal.addEventListener('abort', cancelled, { once: true });
    this.jobs.set(record.uri, live);
    await this.run(live);
    await live.settled;
    // A job stopped by shutdown stays Running in the store; it must not count as done in the
    // queue either, so this delivery never ends and a shared queue hands it back once the lock lapses.
    if (this.stopping && !isFinal(live.record.status)) await new Promise<never>(() => {});
  }

  /**
   * A job the queue gave up on (handed back more often than it allows): its task ends as
   * Error TaskInterrupted unless it is final already or this process still runs it.
   */
  private async abandon(taskId: string): Promise<void> {
    const uri = uriOf(this.deps.config, `/task/${taskId}`);
    const record = (await readTask(this.deps.store, uri))?.record;
    if (!record || isFinal(record.status) || this.jobs.has(uri)) return;
    markInterrupted(record);
    await this.deps.store.replaceGraph(uri, taskQuads(record));
  }

  async reply(task: TaskInfo): Promise<Reply> {
    await this.settled(task.uri, this.deps.config.syncWindowMs);
    const t = await readTask(this.deps.store, task.uri);
    if (!t) throw new NotFound(`no task ${task.uri}`, { code: ERR.TaskNotFound });
    return taskReply(t.record, t.quads, this.deps.config.baseUrl);
  }

  async runAsTask<P>(kind: string, params: P, meta: TaskMeta): Promise<Reply> {
    return this.reply(await this.submit(kind, params, meta));
  }

  runInWorker<T>(module: URL | string, fn: string, input: unknown, options?: WorkerOptions): Promise<T> {
    return (options?.urgent ? this.requestPool : this.pool).run<T>(module, fn, input, options);
  }

  /** Whether this process runs the task's job now. */
  holds(uri: string): boolean {
    return this.jobs.has(uri);
  }

  /** As stored: a state change shows here once it is durable, as it does to GET /task/{id}. */
  async get(uri: string): Promise<TaskInfo | undefined> {
    const t = (await readTask(this.deps.store, uri))?.record;
    return t && infoOf(t);
  }

  async cancel(uri: string): Promise<TaskInfo | undefined> {
    const job = this.jobs.get(uri);
    const parked = this.parked.get(uri);
    if (parked && advance(parked, 'cancel')) {
      this.parked.delete(uri);
      await this.deps.store.replaceGraph(uri, taskQuads(parked));
      return infoOf(parked);
    }
    if (!job) return this.cancelQueued(uri);
    if (!advance(job.record, 'cancel')) return infoOf(job.record);
    job.throttle.stop();
    job.controller.abort(new ServiceUnavailable('the task was cancelled'));
    await this.writer.write(job);
    job.settle();
    // What the job holds goes once it has stopped (run), not while it may still read.
    return infoOf(job.record);
  }

  /**
   * A task whose job this process does not run: waiting in the queue, or running in another
   * process. Marked Cancelled in the store; then the queue drops it, or tells its process.
   */
  private async cancelQueued(uri: string): Promise<TaskInfo | undefined> {
    const t = (await readTask(this.deps.store, uri))?.record;
    if (!t || !advance(t, 'cancel')) return t && infoOf(t);
    await this.deps.store.replaceGraph(uri, taskQuads(t));
    if (await this.queue.cancel(uri)) {
      this.quota.release(uri);
      await this.discard(t);
    }
    return infoOf(t);
  }

  /**
   * What a cancelled task's job holds goes (JobDefinition.discard). A failure is logged, not
   * thrown: the task is cancelled all the same, and a later start sweeps what is left
   * (datasets/uploadSweep.ts).
   */
  private async discard(record: TaskRecord): Promise<void> {
    const definition = this.definitions.get(record.kind);
    if (!definition?.discard) return;
    try {
      await definition.discard(paramsOf(record));
    } catch (e) {
      this.deps.logger.warn({ err: e, task: record.uri }, 'could not remove what a cancelled task held');
    }
  }

  /**
   * The task once it is final, or as it is after `timeoutMs`: the wait for a job this process
   * runs ends with its final write, for any other the store is read every POLL_MS. Not the
   * in-memory status: this resolves once the final state is durable.
   */
  async settled(uri: string, timeoutMs: number): Promise<TaskInfo | undefined> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const t = await this.get(uri);
      const left = deadline - Date.now();
      if (!t || isFinal(t.status) || left <= 0) return t;
      const job = this.jobs.get(uri);
      await (job ? Promise.race([job.settled, sleep(left)]) : sleep(Math.min(POLL_MS, left)));
    }
  }

  /** Stops taking work, aborts running jobs (they stay Running in the store, to be recovered). */
  async close(): Promise<void> {
    this.stopping = true;
    clearInterval(this.purgeTimer);
    await this.queue.close();
    const running = [...this.jobs.values()].filter((j) => j.record.status === 'Running');
    for (const job of this.jobs.values()) job.throttle.stop();
    for (const job of running) job.controller.abort(new ServiceUnavailable('the service is stopping'));
    await Promise.race([Promise.all(running.map((j) => j.finished)), sleep(CLOSE_GRACE_MS)]);
    await Promise.all([...this.jobs.values()].map((j) => j.writes));
    this.writer.close();
    await Promise.all([this.pool.close(), this.requestPool.close()]);
  }

  /** Runs the job and writes its outcome; resolves once that is written. */
  private async run(job: LiveJob): Promise<void> {
    if (!advance(job.record, 'start')) return;
    void this.writer.write(job);
    // Task URI and kind only: titles and parameters may quote what a client sent.
    const task = { task: job.record.uri, kind: job.record.kind };
    const started = performance.now();
    this.deps.logger.info(task, 'task started');
    let result: JobResult | undefined;
    let failure: unknown;
    let failed = false;
    try {
      // Unreadable parameters of a recovered task fail the task, not start-up.
      // Each job has its own allowance of requests to other services (REMOTE_MAX_FETCHES).
      result = await withFetchBudget(this.deps.config.remoteMaxFetches, () => job.definition.run(paramsOf(job.record), job.context(this.pool)));
      // A job acts with its creator's rights (SPEC §5), so what it created is the creator's.
      await recordOwners(this.deps, result, job.record.owner);
    } catch (e) {
      failed = true;
      failure = e;
    }
    job.throttle.stop();
    const shutDown = failed && this.stopping && job.controller.signal.aborted;
    // A cancelled task keeps no result (SPEC §3: Cancelled is final); a job stopped by
    // shutdown stays Running in the store, so the next start recovers it.
    const changed = !isFinal(job.record.status) && !shutDown;
    if (changed && failed && failTask(job.record, failure, this.deps.config.debug)) this.deps.logger.error({ ...task, err: failure }, 'task failed unexpectedly');
    if (changed && !failed) completeTask(job.record, result, this.deps.config.debug);
    const ended = { ...task, status: shutDown ? 'Interrupted' : job.record.status, ms: Math.round(performance.now() - started) };
    if (job.record.status === 'Error' && changed) this.deps.logger.warn({ ...ended, error: job.record.error?.message }, 'task ended');
    else this.deps.logger.info(ended, 'task ended');
    job.finish();
    let last = changed ? this.writer.write(job) : job.writes;
    // A cancelled job's holdings go once it has stopped, as one of its writes: close() waits
    // for those, so the store is still open.
    if (job.record.status === 'Cancelled') last = job.writes = last.then(() => this.discard(job.record));
    await last;
    this.jobs.delete(job.record.uri);
    this.quota.release(job.record.uri);
    job.settle();
  }
}
