// Representations that change only on write (algorithm descriptions, compounds, models,
// finished tasks, ontologies) are produced once per format and served from memory until a
// write to a graph they are built from (Reply.depends) moves that graph's version
// (src/store/versions.ts). Each carries a strong ETag from the version and the format
// (and the content coding, RFC 9110 §8.8.3), Last-Modified, and `Cache-Control: no-cache`
// so that clients revalidate (a 304 costs no serialising) instead of guessing freshness.
import { createHash } from 'node:crypto';
import type Koa from 'koa';
import { versionsOf, type GraphVersions } from '../store/versions.ts';
import type { Body, Reply, Variant } from './reply.ts';
import { chooseCoding, compressible, encode, MIN_BYTES, type Coding, type CodingDecided } from './compress.ts';
import { lastModifiedOf, notModified } from './conditional.ts';
import { SizedLru } from '../util/sizedLru.ts';
import { edgeOf } from './jsonEdge.ts';

export interface Entry {
  key: string;
  /** Which version of the graphs the body was built from. */
  tag: string;
  /** The graphs the body was built from (Reply.depends). */
  depends: readonly string[];
  modified: number;
  body: Buffer;
  coded: Map<Coding, Promise<Buffer>>;
  /** Header values, computed at the first request that needs them. */
  etags: Map<string, string>;
  lastModified?: string;
}

/**
 * `body` in memory of its own. Node hands out small buffers (Buffer.from under 4 KiB, and
 * Buffer.concat's results) as slices of a shared 8 KiB slab, and one cached slice keeps its
 * whole slab alive: thousands of small cached bodies (finished tasks, SMILES) held several
 * times the bytes the cache counted, and the process's ArrayBuffers grew past the cache's
 * budget for as long as it ran.
 */
export function ownBuffer(body: Buffer | string): Buffer {
  if (typeof body !== 'string' && body.byteOffset === 0 && body.buffer.byteLength === body.length) return body;
  const out = Buffer.allocUnsafeSlow(typeof body === 'string' ? Buffer.byteLength(body) : body.length);
  if (typeof body === 'string') out.write(body);
  else body.copy(out);
  return out;
}

/**
 * What an entry costs besides its body and codings, counted against the budget: its key, tag
 * and header strings, two maps, the Buffer and ArrayBuffer objects (several hundred bytes, by
 * the objects a heap snapshot showed kept per entry; rounded up). Thousands of small bodies
 * (finished tasks, SMILES) would otherwise hold several times the memory the budget says.
 */
export const ENTRY_OVERHEAD = 1024;

/**
 * Serialised bodies by request URL and media type, least recently used evicted first; an
 * entry goes as soon as a graph it was built from is written (invalidate), so the bodies of
 * deleted resources do not wait for eviction.
 */
export class BodyCache {
  private readonly entries: SizedLru<Entry>;
  /** Keys of the entries built from each graph. */
  private readonly byGraph = new Map<string, Set<string>>();

  constructor(maxBytes = 32 * 1024 * 1024) {
    // A body that would take a large share of the budget is not worth evicting others for.
    this.entries = new SizedLru<Entry>(maxBytes, (entry) => ENTRY_OVERHEAD + entry.body.length, {
      largest: ENTRY_OVERHEAD + maxBytes / 8,
      onEvict: (key, entry) => this.unindex(key, entry),
    });
  }

  /** Entries held (for tests). */
  get size(): number {
    return this.entries.size;
  }

  /** The entry under `key`, when it was built from version `tag`. */
  get(key: string, tag: string): Entry | undefined {
    // get, not peek: a hit is the common case, and it counts as a use; a stale entry goes.
    const entry = this.entries.get(key);
    if (entry === undefined || entry.tag === tag) return entry;
    this.entries.delete(key);
    return undefined;
  }

  set(key: string, tag: string, modified: number, data: Buffer | string, depends: readonly string[]): Entry {
    const entry: Entry = { key, tag, depends, modified, body: ownBuffer(data), coded: new Map(), etags: new Map() };
    if (this.entries.set(key, entry)) {
      for (const graph of depends) {
        let keys = this.byGraph.get(graph);
        if (!keys) this.byGraph.set(graph, (keys = new Set()));
        keys.add(key);
      }
    }
    return entry;
  }

  /** Drops every entry built from one of `graphs` (all of them when undefined): they were written. */
  invalidate(graphs: readonly string[] | undefined): void {
    if (!graphs) {
      this.entries.clear();
      this.byGraph.clear();
      return;
    }
    for (const graph of graphs) {
      const keys = this.byGraph.get(graph);
      if (!keys) continue;
      for (const key of keys) this.entries.delete(key);
    }
  }

  /** `entry`'s body in `coding`, coded once; its bytes count against the budget while it is held. */
  coded(entry: Entry, coding: Coding): Promise<Buffer> {
    let coded = entry.coded.get(coding);
    if (!coded) {
      coded = encode(entry.body, coding, true).then(ownBuffer);
      entry.coded.set(coding, coded);
      coded.then((b) => {
        if (this.entries.peek(entry.key) === entry) this.entries.grow(entry.key, b.length);
      }, () => entry.coded.delete(coding));
    }
    return coded;
  }

  /** An entry that left: the graphs it was built from no longer name it. */
  private unindex(key: string, entry: Entry): void {
    for (const graph of entry.depends) {
      const keys = this.byGraph.get(graph);
      keys?.delete(key);
      if (keys?.size === 0) this.byGraph.delete(graph);
    }
  }
}

export interface CacheState {
  versions: GraphVersions;
  cache: BodyCache;
  /** The store's write counter when the request began, before anything was read. */
  since: number;
}

/**
 * Middleware before the routers: notes the store's write counter as a request begins, for
 * sendCached. A store without versions (not wrapped by versioned()) caches nothing.
 */
export function representationCache(store: object, maxBytes?: number): Koa.Middleware {
  const versions = versionsOf(store);
  if (!versions) return (_ctx, next) => next();
  const cache = new BodyCache(maxBytes);
  versions.onWrite((graphs) => cache.invalidate(graphs));
  return (ctx, next) => {
    const state: CacheState = { versions, cache, since: versions.current };
    (ctx.state as { representations?: CacheState }).representations = state;
    return next();
  };
}

/** The version tag of `graphs`: a per-run epoch and the number of the newest write to them. */
export const tagOf = (versions: GraphVersions, seq: number): string => `${versions.epoch}.${seq}`;

const contentTypes = new Map<string, string>();

/** Content-Type of a variant: text types carry their charset. */
export function contentTypeOf(type: string): string {
  let value = contentTypes.get(type);
  if (value === undefined) {
    value = /^(text\/|application\/(rdf\+xml|n-triples|ld\+json|json|xml|sparql))/.test(type) ? `${type}; charset=utf-8` : type;
    if (contentTypes.size < 1000) contentTypes.set(type, value);
  }
  return value;
}

const typeTags = new Map<string, string>();
const typeTag = (type: string): string => {
  let tag = typeTags.get(type);
  if (!tag) typeTags.set(type, (tag = createHash('sha1').update(type).digest('base64url').slice(0, 6)));
  return tag;
};

/**
 * Serves `variant` of a Reply that names its graphs (Reply.depends) through the cache, with
 * validators and conditional GET. False when the reply is not one to cache (send() goes on);
 * a body that cannot be cached (a stream) is set as it is.
 */
export async function sendCached(ctx: Koa.Context, reply: Reply, variant: Variant, contentType: string): Promise<boolean> {
  const state = (ctx.state as { representations?: CacheState }).representations;
  if (!state || !reply.depends || reply.status !== 200 || (ctx.method !== 'GET' && ctx.method !== 'HEAD')) return false;
  const { versions, cache, since } = state;
  const current = versions.of(reply.depends);
  const tag = tagOf(versions, current.seq);
  const key = `${ctx.url}\n${variant.type}`;
  let entry = current.seq <= since ? cache.get(key, tag) : undefined;
  if (!entry) {
    const body: Body = await variant.produce(edgeOf(ctx));
    // Changed while this request read it: served as read, but neither cached nor tagged.
    if (versions.of(reply.depends).seq > since || !(typeof body === 'string' || Buffer.isBuffer(body))) {
      setBody(ctx, contentType, body, reply.status);
      return true;
    }
    entry = cache.set(key, tag, current.modified, body, reply.depends);
  }
  await serveEntry(ctx, cache, entry, variant.type);
  return true;
}

/**
 * Answers with a cached body: validators, 304 when the client's copy is current, else the body
 * in the coding asked for (send() has set Vary: Accept when the resource has other variants).
 */
async function serveEntry(ctx: Koa.Context, cache: BodyCache, entry: Entry, type: string): Promise<void> {
  const codable = compressible(type) && entry.body.length >= MIN_BYTES;
  (ctx.state as CodingDecided).codingDecided = true;
  if (codable) ctx.vary('Accept-Encoding');
  const coding = codable ? chooseCoding(ctx.get('Accept-Encoding')) : undefined;
  let etag = entry.etags.get(coding ?? '');
  if (etag === undefined) entry.etags.set(coding ?? '', (etag = `"${entry.tag}.${typeTag(type)}${coding ? '.' + coding : ''}"`));
  const lastModified = lastModifiedOf(entry.modified);
  const res = ctx.res;
  res.setHeader('ETag', etag);
  res.setHeader('Cache-Control', 'no-cache');
  if (lastModified !== undefined) res.setHeader('Last-Modified', (entry.lastModified ??= new Date(lastModified).toUTCString()));
  if (notModified(ctx, etag, lastModified)) {
    ctx.status = 304;
    ctx.body = null;
    return;
  }
  if (coding) res.setHeader('Content-Encoding', coding);
  // The header, not ctx.type: Koa's setter looks the type up in its MIME table every time.
  res.setHeader('Content-Type', contentTypeOf(type));
  ctx.body = coding ? await cache.coded(entry, coding) : entry.body;
  ctx.status = 200;
}

function setBody(ctx: Koa.Context, contentType: string, body: Body, status: number): void {
  ctx.type = contentType;
  ctx.body = body;
  ctx.status = status;
}
