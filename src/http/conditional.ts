// Conditional GET (RFC 9110 §13): If-None-Match against the entity tag, else
// If-Modified-Since against Last-Modified, answered 304 Not Modified when the client's copy
// is current. Only GET and HEAD are evaluated here (§13.1.2: other methods would answer 412).
import type Koa from 'koa';

/** An entity tag's opaque part, from a list member such as `W/"abc"` or `"abc"`. */
const opaque = (tag: string): string => tag.trim().replace(/^W\//, '');

/**
 * RFC 9110 §13.1.2: If-None-Match is false when a listed tag matches `etag` by weak
 * comparison (§8.8.3.2), or the list is `*` (the resource exists).
 */
export function noneMatch(header: string, etag: string): boolean {
  if (header.trim() === '*') return false;
  const mine = opaque(etag);
  return !header.split(',').some((t) => opaque(t) === mine);
}

/** RFC 9110 §13.1.3: modified since `date` (an HTTP-date) unless Last-Modified is not later. */
export function modifiedSince(header: string, lastModified: number): boolean {
  const since = Date.parse(header);
  // An invalid date is ignored (the condition does not apply).
  if (Number.isNaN(since)) return true;
  return Math.floor(lastModified / 1000) * 1000 > since;
}

/**
 * True when the request's preconditions say the client's copy is current (RFC 9110 §13.2.2:
 * If-None-Match decides when present, and If-Modified-Since is then ignored).
 */
export function notModified(ctx: Koa.Context, etag: string, lastModified: number | undefined): boolean {
  if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return false;
  const inm = ctx.get('If-None-Match');
  if (inm) return !noneMatch(inm, etag);
  const ims = ctx.get('If-Modified-Since');
  if (ims && lastModified !== undefined) return !modifiedSince(ims, lastModified);
  return false;
}

/**
 * Last-Modified of a representation built from what was stored at `modified` (ms), or
 * undefined when that is in the current second: the header has whole seconds, so a second
 * change within the same second would carry the same date and If-Modified-Since would take
 * it for the first (RFC 9110 §8.8.2.2 calls such a date a weak validator).
 */
export function lastModifiedOf(modified: number, now = Date.now()): number | undefined {
  return Math.floor(modified / 1000) < Math.floor(now / 1000) ? modified : undefined;
}
