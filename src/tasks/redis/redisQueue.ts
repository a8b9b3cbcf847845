// The job queue on Redis with BullMQ, for API and worker processes that share nothing but
// the engines. A job is only "run task T": BullMQ's lock and stalled-job check find jobs
// whose worker died (lockDuration), and hand them back once (maxStalledCount); a
// non-idempotent job handed back is not re-run but reported as interrupted. Cancellation
// crosses processes on a Redis channel, since BullMQ cancels only jobs of its own process.
import { Queue, QueueEvents, Worker, UnrecoverableError, type Job } from 'bullmq';
import IORedis, { type Redis } from 'ioredis';
import { ServiceUnavailable } from '../../errors.ts';
import { redisClient, whenReady } from './client.ts';
import type { Delivery, JobQueue, QueuedJob } from '../queue.ts';

const QUEUE = 'opentox-jobs';
/** Seconds a client is told to wait when Redis cannot take a job. */
const RETRY_AFTER = 5;
/** BullMQ's reason for a job whose lock lapsed more often than maxStalledCount allows. */
const STALLED_TOO_OFTEN = 'job stalled more than allowable limit';
/** How long a submission waits for Redis before answering 503. */
const ENQUEUE_TIMEOUT_MS = 5000;

export interface RedisQueueOptions {
  url: string;
  /** Prefix of every key and channel, so several services can share one Redis. */
  prefix?: string;
  /** Milliseconds without a lock renewal after which a running job counts as abandoned. */
  lockDurationMs?: number;
  /** How often each worker looks for abandoned jobs. */
  stalledIntervalMs?: number;
}

/** The task id: the last path segment of the task URI, a valid BullMQ job id. */
const jobIdOf = (taskUri: string) => taskUri.slice(taskUri.lastIndexOf('/') + 1);

export class RedisQueue implements JobQueue {
  readonly distributed = true;
  private readonly queue: Queue;
  private readonly client: Redis;
  private subscriber: Redis | undefined;
  private worker: Worker | undefined;
  private events: QueueEvents | undefined;
  private readonly prefix: string;
  private readonly channel: string;

  constructor(private readonly options: RedisQueueOptions) {
    this.prefix = options.prefix ?? 'opentox';
    this.channel = `${this.prefix}:cancel`;
    // Fail fast while Redis is away: a submission answers 503 instead of waiting forever.
    this.client = redisClient(options.url);
    this.queue = new Queue(QUEUE, { connection: this.client, prefix: this.prefix });
    this.queue.on('error', () => {});
  }

  async enqueue(job: QueuedJob): Promise<void> {
    const add = whenReady(this.client, ENQUEUE_TIMEOUT_MS).then(() => this.queue.add(job.kind, job, { jobId: jobIdOf(job.taskUri), removeOnComplete: true, removeOnFail: true }));
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${ENQUEUE_TIMEOUT_MS} ms`)), ENQUEUE_TIMEOUT_MS);
    });
    try {
      await Promise.race([add, timeout]);
    } catch (e) {
      throw new ServiceUnavailable(`the job queue (Redis at ${redact(this.options.url)}) cannot take jobs now`, {
        cause: e,
        details: (e as Error).message,
        retryAfterSeconds: RETRY_AFTER,
      });
    } finally {
      clearTimeout(timer);
    }
  }

  async cancel(taskUri: string): Promise<boolean> {
    const id = jobIdOf(taskUri);
    const job = await this.queue.getJob(id);
    // A waiting job is dropped; a running one is locked and refuses removal (as does one a
    // worker took since its state was read), so its process is told.
    if (job && (await job.getState()) !== 'active') {
      try {
        await job.remove();
        return true;
      } catch {
        // Taken meanwhile: told below.
      }
    }
    await this.client.publish(this.channel, id);
    return false;
  }

  consume(run: (delivery: Delivery) => Promise<void>, concurrency: number, abandoned?: (taskId: string) => Promise<void>): void {
    const connection = new IORedis(this.options.url, { maxRetriesPerRequest: null });
    connection.on('error', () => {});
    this.worker = new Worker(QUEUE, async (job: Job<QueuedJob>, _token?: string, signal?: AbortSignal) => {
      const controller = new AbortController();
      signal?.addEventListener('abort', () => controller.abort(signal.reason), { once: true });
      try {
        await run({ job: job.data, signal: controller.signal, redelivered: job.stalledCounter > 0 || job.attemptsStarted > 1 });
      } catch (e) {
        // The task's own state already says what happened; BullMQ must not retry it.
        throw new UnrecoverableError((e as Error).message);
      }
    }, {
      connection,
      prefix: this.prefix,
      concurrency,
      lockDuration: this.options.lockDurationMs ?? 30_000,
      stalledInterval: this.options.stalledIntervalMs ?? 30_000,
      maxStalledCount: 1,
    });
    this.worker.on('error', () => {});
    if (abandoned) {
      // A job handed back twice (its worker seemed dead twice) is failed by BullMQ itself,
      // where no processor sees it: its task must still end, never stay Running.
      const events = new IORedis(this.options.url, { maxRetriesPerRequest: null });
      events.on('error', () => {});
      this.events = new QueueEvents(QUEUE, { connection: events, prefix: this.prefix });
      this.events.on('error', () => {});
      this.events.on('failed', ({ jobId, failedReason }) => {
        if (failedReason === STALLED_TOO_OFTEN) void abandoned(jobId).catch(() => undefined);
      });
    }
    this.subscriber = new IORedis(this.options.url, { maxRetriesPerRequest: null });
    this.subscriber.on('error', () => {});
    void this.subscriber.subscribe(this.channel);
    this.subscriber.on('message', (_channel: string, id: string) => {
      this.worker?.cancelJob(id, 'cancelled');
    });
  }

  async close(): Promise<void> {
    await this.worker?.close(true);
    await this.events?.close();
    this.subscriber?.disconnect();
    await this.queue.close();
    this.client.disconnect();
  }
}

/** A Redis URL without its password, for messages. */
function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'the configured URL';
  }
}
