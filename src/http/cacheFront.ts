// The representation cache's front (src/http/cache.ts): placed after authorisation and
// before the routers, it notes the store's write counter as a request begins, and answers a
// GET or HEAD for a URL whose reply it already holds, in the format Accept asks for and at
// the current version of its graphs, without routing or building the reply again. Anything
// else (a new URL, another version, a format not yet produced, a browser asking for HTML)
// goes on to the routers as before.
import type Koa from 'koa';
import { negotiate } from '../rdf/formats.ts';
import { versionsOf } from '../store/versions.ts';
import { BodyCache, serveEntry, type CacheState, type Shape } from './cache.ts';
import { acceptOf, prefersHtml, HTML, type PageRenderer } from './send.ts';

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
      const served = serveKnown(ctx, state, choices);
      if (served !== false) return served;
    }
    return next();
  };
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
  for (const [k, v] of Object.entries(shape.headers)) ctx.set(k, v);
  return serveEntry(ctx, cache, entry, chosen, shape.types.length > 1);
}
