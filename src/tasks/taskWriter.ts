// The store writes of the tasks this process holds: each after the task's earlier ones, so
// they land in order, and a final state refused for lack of room tried again until it lands.
import { InsufficientStorage } from '../errors.ts';
import type { Logger } from '../logger.ts';
import type { Store } from '../store/api.ts';
import type { LiveJob } from './liveJob.ts';
import { isFinal } from './stateMachine.ts';
import { taskQuads } from './tasks.ts';

/** First and longest wait before a final task state refused for lack of room is written again. */
const WRITE_RETRY_MS = 250;
const WRITE_RETRY_MAX_MS = 4000;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref());

export class TaskWriter {
  /** Set once the engine has flushed: the store may be closed, so nothing more is written. */
  private closed = false;

  constructor(private readonly store: Store, private readonly logger: Logger, private readonly stopping: () => boolean) {}

  /** Writes the task as it is now, after its earlier writes; a failed write is logged. */
  write(job: LiveJob): Promise<void> {
    if (this.closed) return job.writes;
    job.writes = job.writes
      .then(() => this.persist(job))
      .catch((e: unknown) => this.logger.error({ err: e, task: job.record.uri }, 'task write failed'));
    return job.writes;
  }

  /**
   * One write of the task. A final state refused for lack of room (507) is tried again
   * until the disk has room: dropped, it would leave the task Running in the store, with
   * nobody running it, until the next restart (SPEC §3: a task ends). Progress writes are
   * not retried, a later write carries their state; shutdown stops the retries (the task
   * stays Running in the store and the next start recovers it).
   */
  private async persist(job: LiveJob): Promise<void> {
    for (let delay = WRITE_RETRY_MS; ; delay = Math.min(2 * delay, WRITE_RETRY_MAX_MS)) {
      try {
        await this.store.replaceGraph(job.record.uri, taskQuads(job.record));
        return;
      } catch (e) {
        if (!(e instanceof InsufficientStorage) || !isFinal(job.record.status) || this.stopping()) throw e;
        this.logger.warn({ task: job.record.uri, status: job.record.status, retryInMs: delay }, 'no room to write the final state of a task; trying again');
        await sleep(delay);
      }
    }
  }

  /** Writes nothing more (the engine has flushed; the store may close). */
  close(): void {
    this.closed = true;
  }
}
