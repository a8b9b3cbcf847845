// The job queue of a process that runs every job it is given (no REDIS_URL): a FIFO in
// memory, run at most `concurrency` at a time. What it holds is only "run task T": the task
// itself is in the store, so a restart loses nothing but the order, and the next start
// queues the unfinished tasks again (recovery.ts).
import { ServiceUnavailable } from '../errors.ts';
import { ERR } from '../rdf/vocab.ts';
import { rateLimitHeaders } from '../http/rateLimitFields.ts';
import type { Delivery, JobQueue, QueuedJob } from './queue.ts';

/** Retry-After of a submission refused because the queue is full (SPEC §3 Rejected). */
const RETRY_AFTER_S = 10;

export class LocalQueue implements JobQueue {
  readonly distributed = false;
  private readonly waiting: QueuedJob[] = [];
  /** The signals of the jobs being run, by task URI. */
  private readonly running = new Map<string, AbortController>();
  private run: ((delivery: Delivery) => Promise<void>) | undefined;
  private concurrency = 0;
  private closed = false;

  /** `capacity`: jobs that may wait while every slot is taken (QUEUE_LENGTH); more are refused. */
  constructor(private readonly capacity: number) {}

  /**
   * Refused (503 ServerOverload) when full. Before consume() nothing is refused: what a start
   * queues then is what the last process left.
   */
  async enqueue(job: QueuedJob): Promise<void> {
    if (this.closed) throw new ServiceUnavailable('the service is stopping', { retryAfterSeconds: RETRY_AFTER_S });
    if (this.run && this.running.size >= this.concurrency && this.waiting.length >= this.capacity) {
      throw new ServiceUnavailable(`the server is overloaded: ${this.waiting.length} tasks are waiting to run`, {
        code: ERR.ServerOverload,
        // The whole service's policy: jobs running and waiting at once (draft-ietf-httpapi-ratelimit-headers).
        headers: rateLimitHeaders({ name: 'queue', quota: this.concurrency + this.capacity, unit: 'concurrent-requests' }, 0, RETRY_AFTER_S),
        details: `No task was created. Submit again after ${RETRY_AFTER_S} seconds.`,
      });
    }
    this.waiting.push(job);
    this.pump();
  }

  async cancel(taskUri: string): Promise<boolean> {
    const i = this.waiting.findIndex((j) => j.taskUri === taskUri);
    if (i >= 0) {
      this.waiting.splice(i, 1);
      return true;
    }
    this.running.get(taskUri)?.abort(new ServiceUnavailable('the task was cancelled'));
    return false;
  }

  consume(run: (delivery: Delivery) => Promise<void>, concurrency: number): void {
    this.run = run;
    this.concurrency = concurrency;
    this.pump();
  }

  /** Hands out nothing more; the jobs running go on (the engine stops them). */
  async close(): Promise<void> {
    this.closed = true;
  }

  private pump(): void {
    while (this.run && !this.closed && this.running.size < this.concurrency && this.waiting.length > 0) {
      const job = this.waiting.shift()!;
      const controller = new AbortController();
      this.running.set(job.taskUri, controller);
      void this.run({ job, signal: controller.signal, redelivered: false })
        .catch(() => undefined)
        .finally(() => {
          this.running.delete(job.taskUri);
          this.pump();
        });
    }
  }
}
