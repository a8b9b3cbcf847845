// Header fields every answer carries, whatever layer answers it (errors, 304s, cached
// representations): X-Content-Type-Options keeps a browser from reading
// a text or RDF body as HTML or script. Pages add their own policy (src/pages/pagePolicy.ts).
import type Koa from 'koa';

/** Set on every answer, by this middleware and by the server's own error answers (clientErrors.ts). */
export const EVERY_ANSWER: Readonly<Record<string, string>> = { 'X-Content-Type-Options': 'nosniff' };

export function securityHeaders(): Koa.Middleware {
  return (ctx, next) => {
    for (const [name, value] of Object.entries(EVERY_ANSWER)) ctx.res.setHeader(name, value);
    return next();
  };
}
