// Prefer (RFC 7240) on the requests that start a job: `wait=N` asks for the job's final
// answer if it comes within N seconds (§4.3), `respond-async` for the task at once (§4.1).
// This module reads the field; src/tasks/taskReply.ts turns a job's answer into the
// preferred one, through a function the middleware puts on ctx.state for `send`.
import type Koa from 'koa';
import type { Reply } from './reply.ts';

/** The longest wait honoured: a request held longer ties up a connection for little gain. */
export const MAX_WAIT_SECONDS = 60;

export interface Preferences {
  /** Seconds to wait, capped at MAX_WAIT_SECONDS; absent when no valid wait was asked. */
  waitSeconds?: number;
  respondAsync: boolean;
  /** When the request arrived (ms): a wait counts from then. */
  since: number;
}

/**
 * The preferences of a Prefer field (RFC 7240 §2: comma-separated `token [= word]` with
 * `;` parameters; names are case-insensitive, values may be quoted). Unknown ones and a
 * wait that is no non-negative integer are ignored (§2: a preference that is not understood
 * is not applied).
 */
export function parsePrefer(field: string | undefined, since = Date.now()): Preferences {
  const prefs: Preferences = { respondAsync: false, since };
  for (const item of (field ?? '').split(',')) {
    const [head = ''] = item.split(';');
    const eq = head.indexOf('=');
    const name = (eq < 0 ? head : head.slice(0, eq)).trim().toLowerCase();
    const value = eq < 0 ? '' : head.slice(eq + 1).trim().replace(/^"(.*)"$/, '$1');
    if (name === 'respond-async') prefs.respondAsync = true;
    // §2: the first occurrence of a preference wins.
    else if (name === 'wait' && prefs.waitSeconds === undefined && /^\d{1,9}$/.test(value)) prefs.waitSeconds = Math.min(Number(value), MAX_WAIT_SECONDS);
  }
  return prefs;
}

/** Turns the answer of a job into the one `prefs` ask for (src/tasks/taskReply.ts preferredReply). */
export type PreferredReply = (reply: Reply, prefs: Preferences) => Promise<Reply>;

type PreferState = { prefer?: (reply: Reply) => Promise<Reply> };

/**
 * On POST, the only method that starts jobs: `send` hands a job's answer (Reply.task) to
 * `apply` with the request's preferences. Every such answer varies with Prefer.
 */
export function preferMiddleware(apply: PreferredReply): Koa.Middleware {
  return async (ctx, next) => {
    if (ctx.method === 'POST') {
      const prefs = parsePrefer(ctx.get('Prefer') || undefined);
      (ctx.state as PreferState).prefer = (reply) => {
        ctx.vary('Prefer');
        return prefs.waitSeconds === undefined && !prefs.respondAsync ? Promise.resolve(reply) : apply(reply, prefs);
      };
    }
    await next();
  };
}

/** The preferred answer for a job's `reply`, or `reply` itself outside a POST. */
export function preferred(ctx: Koa.Context, reply: Reply): Promise<Reply> {
  const prefer = (ctx.state as PreferState).prefer;
  return reply.task && prefer ? prefer(reply) : Promise.resolve(reply);
}
