// Header fields every answer carries, whatever layer answers it (errors, 304s, the
// representation cache's ready replies): X-Content-Type-Options keeps a browser from reading
// a text or RDF body as HTML or script. HTML pages add their own policy (src/pages/pagePolicy.ts),
// set once the body is known to be a page, before Koa writes the head.
import type Koa from 'koa';

/** Set on every answer, by this middleware and by the server's own error answers (listen.ts). */
export const EVERY_ANSWER: Readonly<Record<string, string>> = { 'X-Content-Type-Options': 'nosniff' };

/** Lower-cased names of EVERY_ANSWER, as Node's getHeaderNames() reports them. */
export const EVERY_ANSWER_NAMES: ReadonlySet<string> = new Set(Object.keys(EVERY_ANSWER).map((k) => k.toLowerCase()));

export function securityHeaders(pageHeaders: Readonly<Record<string, string>>): Koa.Middleware {
  return async (ctx, next) => {
    for (const [name, value] of Object.entries(EVERY_ANSWER)) ctx.res.setHeader(name, value);
    await next();
    if (ctx.headerSent || !ctx.response.is('html')) return;
    for (const [name, value] of Object.entries(pageHeaders)) ctx.set(name, value);
  };
}
