// One JSON log line per request, once the response is sent: method, URL, status, time,
// bytes. Never headers (Authorization and subjectid carry tokens), and the query goes
// through redact(): a subjectid parameter or a dataset_uri with user-info (RFC 3986 §3.2.1
// deprecates passwords there, but clients send them) shows as ***.
import type Koa from 'koa';
import type { Logger } from '../logger.ts';
import { redact } from '../util/redact.ts';
// Query parameters whose whole value is a secret, whatever it looks like.
import { TOKEN_PARAMS as SECRET_PARAMS } from './tokenParams.ts';
const HIDDEN = '***';

/** Path and query as logged: secrets in the query hidden, decoded values redacted. */
export function loggedUrl(originalUrl: string): string {
  const q = originalUrl.indexOf('?');
  if (q < 0) return redact(originalUrl);
  const params = new URLSearchParams(originalUrl.slice(q + 1));
  const safe = new URLSearchParams();
  for (const [name, value] of params) safe.append(name, SECRET_PARAMS.test(name) ? HIDDEN : redact(value));
  return `${redact(originalUrl.slice(0, q))}?${safe.toString().replaceAll('%2A%2A%2A', HIDDEN)}`;
}

export function accessLog(logger: Logger): Koa.Middleware {
  return async (ctx, next) => {
    const started = performance.now();
    // 'close' fires when the response is complete or the connection was cut: streamed
    // bodies (datasets, SPARQL results) are timed to their last byte.
    ctx.res.once('close', () => {
      // A client that left before the answer began got no status: Koa's default (404) or the
      // one a handler was about to send would be a lie in the log.
      const sent = ctx.res.headersSent;
      // Server errors are warnings; the rest is built (and its URL redacted) only when logged.
      const warn = sent && ctx.status >= 500;
      if (!logger.isLevelEnabled(warn ? 'warn' : 'info')) return;
      const line = {
        method: ctx.method,
        url: loggedUrl(ctx.originalUrl),
        status: sent ? ctx.status : undefined,
        ms: Math.round((performance.now() - started) * 10) / 10,
        bytes: ctx.res.getHeader('content-length') === undefined ? undefined : Number(ctx.res.getHeader('content-length')),
        ...(ctx.res.writableFinished ? {} : { aborted: true }),
      };
      if (warn) logger.warn(line, 'request');
      else logger.info(line, 'request');
    });
    await next();
  };
}
