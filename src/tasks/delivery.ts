// Running a job the shared queue (REDIS_URL) hands to this process. The task's state is
// read from the store, as any process would: a task already final (cancelled while it
// waited) is skipped; a task already Running was started by a process that died (the
// queue hands a job back once its worker stops renewing its lock), so SPEC §3's rule for
// restarts applies: an idempotent job runs again from the start, any other ends as Error
// TaskInterrupted. Either way no task stays Running.
import type { JobEngine } from './engine.ts';
import type { Delivery } from './queue.ts';
import { readTask, taskQuads } from './tasks.ts';
import { isFinal, transition } from './stateMachine.ts';
import { markInterrupted } from './recovery.ts';
import { failTask } from './outcome.ts';
import { ServiceUnavailable } from '../errors.ts';
import { uriOf } from '../deps.ts';

/** Resolves once the task's final state is written; never resolves for a job stopped by shutdown. */
export async function deliver(engine: JobEngine, { job, signal }: Delivery): Promise<void> {
  const { store, logger, config } = engine.deps;
  const record = (await readTask(store, job.taskUri))?.record;
  if (!record || isFinal(record.status)) {
    // Cancelled while it waited, but handed out before the queue could drop it.
    if (record?.status === 'Cancelled') await engine.discard(record);
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
  const definition = engine.definitions.get(record.kind);
  if (!definition) {
    failTask(record, new Error(`this worker defines no job of kind "${record.kind}"`), config.debug);
    await store.replaceGraph(record.uri, taskQuads(record));
    return;
  }
  const live = engine.live(record, definition, undefined, job.subjectid);
  // DELETE /task/{id} in another process: it wrote Cancelled; this process stops the job and
  // writes Cancelled again after its own writes, so a late progress write cannot undo it.
  signal.addEventListener('abort', () => {
    if (!engine.move(live.record, 'cancel')) return;
    live.throttle.stop();
    live.controller.abort(new ServiceUnavailable('the task was cancelled'));
    void engine.write(live);
  }, { once: true });
  engine.jobs.set(record.uri, live);
  await engine.run(live);
  await live.settled;
  // A job stopped by shutdown stays Running in the store; it must not count as done in the
  // queue either, so this delivery never ends and the queue hands it back once the lock lapses.
  if (engine.stopping && !isFinal(live.record.status)) await new Promise<never>(() => {});
}

/**
 * A job the queue gave up on (handed back more often than it allows): its task ends as
 * Error TaskInterrupted unless it is final already or this process still runs it.
 */
export async function abandon(engine: JobEngine, taskId: string): Promise<void> {
  const { store, config } = engine.deps;
  const uri = uriOf(config, `/task/${taskId}`);
  const record = (await readTask(store, uri))?.record;
  if (!record || isFinal(record.status) || engine.jobs.has(uri)) return;
  markInterrupted(record);
  await store.replaceGraph(uri, taskQuads(record));
}
