// What a job's end does to its task (SPEC §3): Running → Completed with ot:resultURI, or
// Running → Error with the report of what it threw (an HttpError keeps its status, any
// other error is a 500 TaskFailed carrying its message).
import { HttpError, InternalError } from '../errors.ts';
import { reportOf } from '../http/errorReport.ts';
import { ERR } from '../rdf/vocab.ts';
import { isValidIri } from '../store/binder.ts';
import type { TaskRecord } from './tasks.ts';
import type { JobResult } from './api.ts';
import { isFinal, transition } from './stateMachine.ts';

function move(t: TaskRecord, event: 'complete' | 'fail'): void {
  t.status = transition(t.status, event) ?? t.status;
  if (isFinal(t.status)) t.ended = new Date();
}

/** Marks `t` Error with the report of `failure`. True when the failure was unexpected (worth logging). */
export function failTask(t: TaskRecord, failure: unknown, debug: boolean): boolean {
  const known = failure instanceof HttpError;
  const message = (failure as Error | undefined)?.message || String(failure);
  const err = known ? failure : new InternalError(message, { code: ERR.TaskFailed, cause: failure });
  move(t, 'fail');
  t.error = reportOf(err, t.creator, debug);
  t.description ??= t.error.message;
  return !known;
}

/** Marks `t` Completed with the URI(s) a job returned; anything but URIs fails it instead. */
export function completeTask(t: TaskRecord, result: JobResult | undefined, debug: boolean): void {
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
