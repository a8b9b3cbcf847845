// Content codings (RFC 9110 §8.4, §12.5.3): gzip or br when the client accepts one, for
// text bodies over MIN_BYTES; a streamed body is compressed as it streams. Every answer
// whose body could have been coded carries `Vary: Accept-Encoding` (RFC 9110 §12.5.5), so
// a shared cache never hands a gzip body to a client that did not ask for one.
import { Readable, pipeline } from 'node:stream';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type Koa from 'koa';

export type Coding = 'br' | 'gzip';

/** Set in ctx.state by a layer that chose the coding itself (the representation cache). */
export interface CodingDecided {
  codingDecided?: boolean;
}

/** Smaller bodies gain less than the coding's own header and the time it takes. */
export const MIN_BYTES = 1024;

/** Already compressed media types (PNG) and opaque bytes are sent as they are. */
export const compressible = (type: string): boolean =>
  /^(text\/|application\/|chemical\/|image\/svg\+xml)/.test(type) && !/^application\/(octet-stream|zip|gzip|x-gzip|x-bzip2)/.test(type);

/**
 * The coding to use under Accept-Encoding (RFC 9110 §12.5.3): the acceptable one with the
 * highest weight, br before gzip at equal weight; undefined for identity.
 */
export function chooseCoding(header: string | undefined): Coding | undefined {
  if (!header) return undefined;
  const weights = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    if (!name) continue;
    const q = params.map((p) => /^\s*q=([0-9.]+)\s*$/.exec(p)).find(Boolean);
    weights.set(name, q ? Number(q[1]) : 1);
  }
  // x-gzip is gzip (RFC 9110 §8.4.1.3); `*` weighs every coding not named.
  const weight = (c: string) => weights.get(c) ?? (c === 'gzip' ? weights.get('x-gzip') : undefined) ?? weights.get('*') ?? 0;
  const br = weight('br');
  const gzip = weight('gzip');
  if (br <= 0 && gzip <= 0) return undefined;
  return br >= gzip ? 'br' : 'gzip';
}

const brotliParams = (quality: number) => ({ params: { [zlib.constants.BROTLI_PARAM_QUALITY]: quality, [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT } });
const gzipAsync = promisify(zlib.gzip);
const brotliAsync = promisify(zlib.brotliCompress);

/**
 * gzip of bodies up to this size runs on the event loop: a few KB take tens of microseconds,
 * less than the hand-over to the zlib thread pool and back. Brotli at the cache's quality 11
 * takes milliseconds even then, so it always goes to the pool.
 */
export const SYNC_GZIP_BYTES = 8 * 1024;

/**
 * `body` coded with `coding`, in the zlib thread pool (off the event loop) unless it is small
 * gzip. A body coded once and served many times (the representation cache) is worth the
 * slower, smaller levels.
 */
export async function encode(body: Buffer, coding: Coding, once = false): Promise<Buffer> {
  if (coding === 'gzip') {
    const options = { level: once ? 9 : 6 };
    return body.length <= SYNC_GZIP_BYTES ? zlib.gzipSync(body, options) : gzipAsync(body, options);
  }
  return brotliAsync(body, brotliParams(once ? 11 : 5));
}

const codingStream = (coding: Coding) => (coding === 'gzip' ? zlib.createGzip() : zlib.createBrotliCompress(brotliParams(5)));

/**
 * Middleware: codes the body that the layers inside set, unless it is already coded (the
 * representation cache codes its bodies once, src/http/cache.ts).
 */
export function compression(): Koa.Middleware {
  return async (ctx, next) => {
    await next();
    if ((ctx.state as CodingDecided).codingDecided) return;
    const body: unknown = ctx.body;
    if (body === null || body === undefined || ctx.response.get('Content-Encoding') || ctx.status === 204 || ctx.status === 304) return;
    if (!compressible(ctx.response.type)) return;
    const stream = body instanceof Readable;
    const bytes = typeof body === 'string' ? Buffer.from(body) : Buffer.isBuffer(body) ? body : undefined;
    if (!stream && !bytes) return;
    if (bytes && bytes.length < MIN_BYTES) return;
    ctx.vary('Accept-Encoding');
    const coding = chooseCoding(ctx.get('Accept-Encoding'));
    if (!coding || (stream && ctx.method === 'HEAD')) return;
    ctx.remove('Content-Length');
    ctx.set('Content-Encoding', coding);
    if (bytes) {
      ctx.body = await encode(bytes, coding);
      return;
    }
    // The source's errors reach the coded stream, whose errors Koa handles as the body's.
    ctx.body = pipeline(body as Readable, codingStream(coding), () => {});
  };
}
