// How many requests to other services one job, or one request to this service, may make
// (REMOTE_MAX_FETCHES): a dataset naming a million remote compounds must not turn the service
// into a scanner. The count follows the async call chain (AsyncLocalStorage), so the task
// engine and the request middleware set it once and no domain function passes it on.
import { AsyncLocalStorage } from 'node:async_hooks';
import { LimitExceeded } from '../limits.ts';

interface Budget {
  left: number;
  readonly max: number;
}

const current = new AsyncLocalStorage<Budget>();

/** Runs `fn` with a fresh allowance of `max` outbound requests (0 = unlimited). */
export function withFetchBudget<T>(max: number, fn: () => Promise<T>): Promise<T> {
  return current.run({ left: max, max }, fn);
}

/** Counts one outbound request; 413 once the job or request has used its allowance. */
export function spendFetch(): void {
  const budget = current.getStore();
  if (!budget || budget.max === 0) return;
  if (budget.left <= 0) throw new LimitExceeded('the number of requests to other services', budget.max + 1, budget.max, 'REMOTE_MAX_FETCHES');
  budget.left--;
}

/** True for the error spendFetch throws: callers that skip failed items must not skip this one. */
export const isBudgetSpent = (e: unknown): boolean => e instanceof LimitExceeded && e.message.includes('REMOTE_MAX_FETCHES');
