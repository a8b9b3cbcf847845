// What is logged never holds a secret either: an error's message, stack and causes with
// user-info and tokens masked by the same rules as error reports (src/auth/redact.ts).
import { redact } from '../auth/redact.ts';

/** `err` as it may be logged: the same error when it holds no secret, else a masked copy. */
export function logSafe(err: unknown, depth = 0): unknown {
  if (!(err instanceof Error)) return typeof err === 'string' ? redact(err) : err;
  const message = redact(err.message);
  const stack = err.stack === undefined ? undefined : redact(err.stack);
  const cause = depth < 5 && err.cause !== undefined ? logSafe(err.cause, depth + 1) : err.cause;
  if (message === err.message && stack === err.stack && cause === err.cause) return err;
  const copy = new Error(message, cause === undefined ? undefined : { cause });
  copy.name = err.name;
  copy.stack = stack;
  return copy;
}
