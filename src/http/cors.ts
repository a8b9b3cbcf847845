// Cross-origin calls from browser scripts (Fetch standard, CORS protocol): off unless
// CORS_ORIGINS names the origins (or *). Preflight OPTIONS requests are answered here,
// before authentication, since a browser sends them without the subjectid token.
import cors from '@koa/cors';
import type Koa from 'koa';
import type { Config } from '../config.ts';

/**
 * Response headers a browser script may read. Only the CORS-safelisted ones (Content-Type,
 * Content-Language...) are readable without this: the Location of a new resource or task
 * (SPEC §4.3), paging (Link, X-Total-Count, X-Page-Size), Retry-After of 503/429, Allow of
 * 405 and WWW-Authenticate of 401 are not.
 */
export const EXPOSED_HEADERS = ['Location', 'Link', 'X-Total-Count', 'X-Page-Size', 'Retry-After', 'Allow', 'WWW-Authenticate', 'Content-Disposition'];

/** A preflight's answer may be cached this long (seconds). */
const MAX_AGE = 600;

/** The CORS middleware for `config.corsOrigins`; undefined when CORS is off. */
export function corsMiddleware(config: Pick<Config, 'corsOrigins'>): Koa.Middleware | undefined {
  const origins = config.corsOrigins;
  if (origins.length === 0) return undefined;
  const any = origins.includes('*');
  const allowed = new Set(origins);
  return cors({
    // An origin not in the list gets no CORS headers: its browser then withholds the answer.
    origin: (ctx) => (any ? '*' : allowed.has(ctx.get('Origin')) ? ctx.get('Origin') : ''),
    allowMethods: ['GET', 'HEAD', 'POST', 'PUT', 'DELETE'],
    // Tokens travel in headers (subjectid, Authorization), never cookies (SPEC §5).
    credentials: false,
    exposeHeaders: EXPOSED_HEADERS,
    maxAge: MAX_AGE,
  });
}
