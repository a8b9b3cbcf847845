// What is logged never holds a secret either: an error's message, stack, causes and the
// fields it carries (an HttpError's remote reports) with user-info and tokens masked by
// the same rules as error reports (src/util/redact.ts).
import { redact } from '../util/redact.ts';

function masked(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return redact(value);
  if (depth > 5 || value === null || typeof value !== 'object') return value;
  if (value instanceof Error) return logSafe(value, depth + 1);
  if (Array.isArray(value)) return value.map((v) => masked(v, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, masked(v, depth + 1)]));
}

/** `err` as it may be logged: a copy with every string masked (the original is thrown on). */
export function logSafe(err: unknown, depth = 0): unknown {
  if (!(err instanceof Error)) return masked(err, depth);
  const cause = err.cause === undefined ? undefined : masked(err.cause, depth + 1);
  const copy = new Error(redact(err.message), cause === undefined ? undefined : { cause });
  copy.name = err.name;
  copy.stack = err.stack === undefined ? undefined : redact(err.stack);
  for (const [k, v] of Object.entries(err)) if (k !== 'cause') (copy as unknown as Record<string, unknown>)[k] = masked(v, depth + 1);
  return copy;
}
