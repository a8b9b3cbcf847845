// Restarts and retention. At start-up, Queued tasks are handed back to the
// engine; a task that was Running when the process died either runs again (its job is
// idempotent) or ends as Error with a report saying it was interrupted. Finished tasks
// are purged once older than the retention.
import { InternalError } from '../errors.ts';
import { reportOf } from '../http/errorReport.ts';
import { ERR } from '../rdf/vocab.ts';
import type { Store } from '../store/api.ts';
import { readTask, taskQuads, tasksEndedBefore, unfinishedTasks, type TaskRecord } from './tasks.ts';
import { transition } from './stateMachine.ts';

/** Settles what the previous process left; resolves with the tasks to queue again. */
export async function recoverTasks(store: Store, now = new Date()): Promise<TaskRecord[]> {
  const queued: TaskRecord[] = [];
  const writes: TaskRecord[] = [];
  for (const uri of await unfinishedTasks(store)) {
    const t = (await readTask(store, uri))?.record;
    if (!t) continue;
    if (t.status === 'Running' && t.idempotent) {
      t.status = transition(t.status, 'requeue')!;
      t.percentageCompleted = 0;
      writes.push(t);
    } else if (t.status === 'Running') {
      markInterrupted(t, now);
      writes.push(t);
      continue;
    }
    queued.push(t);
  }
  if (writes.length > 0) await store.commit(writes.map((t) => ({ op: 'replace', graph: t.uri, quads: taskQuads(t) })));
  return queued;
}

/** Ends a Running task whose process died (and whose job must not run twice) as Error TaskInterrupted. */
export function markInterrupted(t: TaskRecord, now = new Date()): void {
  t.status = transition(t.status, 'fail')!;
  t.ended = now;
  const err = new InternalError('the service stopped while this task was running; its job was not finished', {
    code: ERR.TaskInterrupted,
    details: 'Submit the job again to get a result.',
  });
  t.error = reportOf(err, t.creator, false);
}

/** Drops the graphs of finished tasks that ended before `before`, except those in `keep`. */
export async function purgeTasks(store: Store, before: Date, keep: (uri: string) => boolean): Promise<number> {
  const uris = (await tasksEndedBefore(store, before)).filter((u) => !keep(u));
  if (uris.length > 0) await store.commit(uris.map((graph) => ({ op: 'drop', graph })));
  return uris.length;
}
