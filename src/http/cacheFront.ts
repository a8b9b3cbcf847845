// The representation cache's front (src/http/cache.ts): placed after authorisation and
// before the routers, it notes the store's write counter as a request begins, and answers a
// GET or HEAD for a URL whose reply it already holds, in the format Accept asks for and at
// the current version of its graphs, without routing or building the reply again. Anything
// else (a new URL, another version, a format not yet produced, a browser asking for HTML)
// goes on to the routers as before.
import type Koa from 'koa';
import { negotiate } from '../rdf/formats.ts';
import { versionsOf } from '../store/versions.ts';
import { BodyCache, serveEntry, type CacheState, type Entry, type Ready, type Shape } from './cache.ts';
import type { CodingDecided } from './compress.ts';
import { acceptOf, prefersHtml, HTML, type PageRenderer } from './send.ts';
import { EVERY_ANSWER_NAMES } from './securityHeaders.ts';

/**
 * Negotiation results by offer, then by Accept: clients repeat the same few Accept headers.
 * Two levels rather than one joined key: the offer's key is a string kept with the shape,
 * whose hash V8 computes once, where a key joined per request would be hashed in full.
 */
class Choices {
  private readonly byOffer = new Map<string, Map<string, string>>();
  private size = 0;

  of(accept: string | undefined, shape: Shape, html: boolean): string {
    let chosen = this.byOffer.get(shape.typesKey);
    if (chosen === undefined) this.byOffer.set(shape.typesKey, (chosen = new Map()));
    const key = html ? `h${accept ?? ''}` : (accept ?? '');
    let choice = chosen.get(key);
    if (choice === undefined) {
      choice = html && prefersHtml(accept, shape.types) ? HTML : negotiate(accept, shape.types);
      if (++this.size > 1000) {
        this.byOffer.clear();
        this.size = 0;
      }
      chosen.set(key, choice);
    }
    return choice;
  }
}

export function representationCache(store: object, maxBytes?: number): Koa.Middleware {
  const versions = versionsOf(store);
  if (!versions) return (_ctx, next) => next();
  const cache = new BodyCache(maxBytes);
  versions.onWrite((graphs) => cache.invalidate(graphs));
  const choices = new Choices();
  return (ctx, next) => {
    const state: CacheState = { versions, cache, since: versions.current };
    (ctx.state as { representations?: CacheState }).representations = state;
    if (ctx.method === 'GET' || ctx.method === 'HEAD') {
      if (serveReady(ctx, state)) return undefined;
      const served = serveKnown(ctx, state, choices);
      if (served !== false) return served;
    }
    return next();
  };
}

/** Set on a request answered by serveReady: its body's length, for the access log. */
export interface SentBytes {
  sentBytes?: number;
}

/**
 * True when the request has no preconditions and no layer before this one has set a header
 * field (CORS does) beyond those every answer carries (securityHeaders.ts): its answer is the same whole list of header fields and body each time,
 * which serveReady writes and keepReady keeps.
 */
function writtenWhole(ctx: Koa.Context): boolean {
  const headers = ctx.req.headers;
  return headers['if-none-match'] === undefined && headers['if-modified-since'] === undefined && ctx.res.getHeaderNames().every((name) => EVERY_ANSWER_NAMES.has(name));
}

/**
 * Answers a request the same as the last one for its URL (same Accept and Accept-Encoding,
 * no preconditions, the same version of its graphs) with the header fields kept from that
 * answer, in one writeHead and end: building them one by one through Koa took about as long
 * as the rest of the request. False when the request differs in any of these, or when a
 * layer before this one has set a header field (CORS) that the kept list would not carry.
 */
function serveReady(ctx: Koa.Context, { versions, cache }: CacheState): boolean {
  const ready = cache.readyOf(ctx.url);
  if (ready === undefined) return false;
  const headers = ctx.req.headers;
  if (headers.accept !== ready.accept || headers['accept-encoding'] !== ready.encoding) return false;
  if (versions.of(ready.shape.depends).seq !== ready.shape.seq || !writtenWhole(ctx)) return false;
  const res = ctx.res;
  cache.touch(ready.entry);
  (ctx.state as CodingDecided & SentBytes).codingDecided = true;
  (ctx.state as SentBytes).sentBytes = ready.body.length;
  // Koa writes nothing more; the layers before this one see the answer as sent (headerSent).
  ctx.respond = false;
  res.writeHead(200, ready.head);
  res.end(ready.body);
  return true;
}

/**
 * After serveKnown answered 200 to a request without preconditions, on a response that had
 * no header fields before it: the answer, kept for serveReady. Not while Last-Modified is
 * left out (the entry is from the current second, conditional.ts lastModifiedOf): the next
 * second's answers carry it.
 */
function keepReady(ctx: Koa.Context, cache: BodyCache, entry: Entry, shape: Shape): void {
  const res = ctx.res;
  const body: unknown = ctx.body;
  if (ctx.status !== 200 || !Buffer.isBuffer(body) || !res.hasHeader('Last-Modified')) return;
  const head: string[] = [];
  // getRawHeaderNames (Node 15.13, missing from @types/node): the names as they were set.
  for (const name of (res as typeof res & { getRawHeaderNames(): string[] }).getRawHeaderNames()) head.push(name, String(res.getHeader(name)));
  const headers = ctx.req.headers;
  const ready: Ready = { accept: headers.accept, encoding: headers['accept-encoding'], entry, shape, head, body };
  cache.keepReady(ctx.url, ready);
}

/**
 * Answers from the cache when it holds the reply: false when it does not (the routers go
 * on), else undefined once answered, or a promise of it when the body is coded first.
 * Not an async function: a hit needs no turn of the microtask queue.
 */
function serveKnown(ctx: Koa.Context, { versions, cache }: CacheState, choices: Choices): false | Promise<void> | undefined {
  const shape = cache.shapeOf(ctx.url);
  if (!shape || versions.of(shape.depends).seq !== shape.seq) return false;
  const html = !!(ctx.state as { page?: PageRenderer }).page;
  const chosen = choices.of(acceptOf(ctx), shape, html);
  if (chosen === HTML) return false;
  const entry = cache.get(`${ctx.url}\n${chosen}`, shape.tag);
  if (!entry) return false;
  const keep = writtenWhole(ctx);
  for (const [k, v] of Object.entries(shape.headers)) ctx.set(k, v);
  const served = serveEntry(ctx, cache, entry, chosen, shape.types.length > 1);
  if (!keep) return served;
  if (served === undefined) keepReady(ctx, cache, entry, shape);
  else return served.then(() => keepReady(ctx, cache, entry, shape));
  return undefined;
}
