// The task states of SPEC §3 in one place: every status change of the engine goes through
// `transition`, so a final state can never change. "Rejected" (server overload) is not a
// stored status (SPEC §2.4 does not list it): a rejected submission creates no task and is
// answered 503 with Retry-After instead.
import type { TaskStatus } from './api.ts';

export type TaskEvent =
  /** Execution starts (SPEC §3: Queued → Running). */
  | 'start'
  /** The job returned its result URI(s). */
  | 'complete'
  /** The job threw, or the service died while it ran. */
  | 'fail'
  /** DELETE /task/{id}. */
  | 'cancel'
  /** Start-up re-runs an idempotent job that was Running when the process died. */
  | 'requeue';

export const STATUSES: readonly TaskStatus[] = ['Queued', 'Running', 'Completed', 'Cancelled', 'Error'];

const TABLE: Record<TaskStatus, Partial<Record<TaskEvent, TaskStatus>>> = {
  Queued: { start: 'Running', cancel: 'Cancelled' },
  Running: { complete: 'Completed', fail: 'Error', cancel: 'Cancelled', requeue: 'Queued' },
  Completed: {},
  Cancelled: {},
  Error: {},
};

export function isFinal(status: TaskStatus): boolean {
  return Object.keys(TABLE[status]).length === 0;
}

/** The status after `event`, or undefined when SPEC §3 does not allow it from `from`. */
export function transition(from: TaskStatus, event: TaskEvent): TaskStatus | undefined {
  return TABLE[from][event];
}

/** Applies a SPEC §3 transition to `t`, stamping its end once final; false when refused. */
export function advance(t: { status: TaskStatus; ended?: Date }, event: TaskEvent): boolean {
  const next = transition(t.status, event);
  if (!next) return false;
  t.status = next;
  if (isFinal(next)) t.ended = new Date();
  return true;
}

/** Parses a status name case-insensitively (`?query=running`); undefined when unknown. */
export function parseStatus(raw: string): TaskStatus | undefined {
  return STATUSES.find((s) => s.toLowerCase() === raw.trim().toLowerCase());
}
