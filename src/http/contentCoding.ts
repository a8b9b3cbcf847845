// Request bodies in a content coding (RFC 9110 §8.4). gzip, deflate and br are decoded as
// they arrive and the body limit counts the decoded bytes, so a small coded body cannot
// grow past it (a compression bomb stops at the limit with 413). Any other coding is
// refused with 415 (RFC 9110 §15.5.16) naming it, before a byte is read.
import { createBrotliDecompress, createGunzip, createInflate, type Gunzip } from 'node:zlib';
import type { Readable } from 'node:stream';
import { BadRequest, HttpError, PayloadTooLarge } from '../errors.ts';
import { ERR } from '../rdf/vocab.ts';

const DECODERS: Record<string, () => Gunzip | ReturnType<typeof createBrotliDecompress>> = {
  gzip: createGunzip, 'x-gzip': createGunzip, deflate: createInflate, br: createBrotliDecompress,
};

export class UnsupportedContentCoding extends HttpError {
  constructor(coding: string) {
    super(415, ERR.UnsupportedContentCoding, `unsupported Content-Encoding "${coding.slice(0, 50)}" of the request body`, {
      details: `Send the body as it is, or coded with one of: ${Object.keys(DECODERS).join(', ')}.`,
      headers: { 'Accept-Encoding': 'gzip, deflate, br' },
    });
  }
}

/** The codings of a Content-Encoding header in the order they were applied, `identity` left out; 415 for one not decoded here. */
export function codingsOf(header: string | undefined): string[] {
  const codings = (header ?? '').split(',').map((c) => c.trim().toLowerCase()).filter((c) => c !== '' && c !== 'identity');
  const unknown = codings.find((c) => !(c in DECODERS));
  if (unknown !== undefined) throw new UnsupportedContentCoding(unknown);
  return codings;
}

/**
 * The decoded body as it arrives: 413 once the bytes received or the bytes decoded pass
 * `limit`; 400 when the body is not valid in its coding.
 */
export async function* decodedBody(req: Readable, codings: readonly string[], limit: number): AsyncGenerator<Buffer> {
  let received = 0;
  let stream: Readable = req;
  const decoders = [...codings].reverse().map((c) => DECODERS[c]!()); // codingsOf checked each name
  const stop = (err: Error): never => {
    for (const d of decoders) d.destroy();
    req.resume();
    throw err;
  };
  const last = decoders.at(-1);
  if (last) {
    // The last decoder is the one read: what fails before it (too many bytes received, an
    // inner coding that is not valid) fails it.
    req.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > limit) last.destroy(new PayloadTooLarge(limit));
    });
    for (const d of decoders) {
      if (d !== last) d.on('error', (e) => last.destroy(e));
      stream = stream.pipe(d);
    }
  }
  let size = 0;
  const chunks = (stream as AsyncIterable<Buffer>)[Symbol.asyncIterator]();
  for (;;) {
    let next: IteratorResult<Buffer>;
    try {
      next = await chunks.next();
    } catch (e) {
      if (e instanceof HttpError) stop(e);
      stop(new BadRequest(`the request body is not valid ${codings.join(', ')}: ${(e as Error).message}`));
    }
    if (next!.done) return;
    size += next!.value.length;
    if (size > limit) stop(new PayloadTooLarge(limit));
    yield next!.value;
  }
}

/** The decoded body, whole (decodedBody). */
export async function readDecoded(req: Readable, codings: readonly string[], limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of decodedBody(req, codings, limit)) chunks.push(chunk);
  return Buffer.concat(chunks);
}
