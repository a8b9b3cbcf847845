// Header fields every answer carries, whatever layer answers it (errors, 304s, the
// representation cache's ready replies): X-Content-Type-Options keeps a browser from reading
// a text or RDF body as HTML or script. Pages add their own policy (src/pages/pagePolicy.ts).
import type Koa from 'koa';

/** Set on every answer, by this middleware and by the server's own error answers (clientErrors.ts). */
export const EVERY_ANSWER: Readonly<Record<string, string>> = { 'X-Content-Type-Options': 'nosniff' };

/** Lower-cased names of EVERY_ANSWER, as Node's getHeaderNames() reports them. */
export const EVERY_ANSWER_NAMES: ReadonlySet<string> = new Set(Object.keys(EVERY_ANSWER).map((k) => k.toLowerCase()));

/** Not an async function: a request answered from the cache needs no turn of the microtask queue. */
export function securityHeaders(): Koa.Middleware {
  return (ctx, next) => {
    for (const [name, value] of Object.entries(EVERY_ANSWER)) ctx.res.setHeader(name, value);
    return next();
  };
}
