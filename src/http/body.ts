// Request bodies: raw bytes under a size limit, forms (SPEC §1 rules 1-2), multipart
// uploads (rule 6) and RDF in any syntax of the format table.
import type Koa from 'koa';
import { rm } from 'node:fs/promises';
import { once } from 'node:events';
import busboy from 'busboy';
import type * as RDF from '@rdfjs/types';
import { BadRequest, PayloadTooLarge, UnsupportedMediaType } from '../errors.ts';
import { RDF_MEDIA_TYPES, syntaxOf } from '../rdf/formats.ts';
import { parseRdf } from '../rdf/parse.ts';
import { codingsOf, decodedBody, readDecoded } from './contentCoding.ts';
import { openPrivate } from '../files/privateFiles.ts';
import { checkParameters, checkRdfNesting, checkTriples, countParameters, limitsOf, LimitExceeded } from './limits.ts';

/** The limit is read from ctx.state.bodyLimit, set by the app from configuration. */
function limitOf(ctx: Koa.Context): number {
  return (ctx.state as { bodyLimit?: number }).bodyLimit ?? 100 * 1024 * 1024;
}

/** Media type of the request without parameters, lower-cased ('' when absent). */
export function contentType(ctx: Koa.Context): string {
  return (ctx.get('Content-Type') || '').split(';')[0]!.trim().toLowerCase(); // split gives at least one part
}

/**
 * Reads the whole body, decoded from its Content-Encoding (contentCoding.ts), refusing with
 * 413 past the limit (before reading, when declared). Every body reader comes through here.
 */
export async function readRaw(ctx: Koa.Context): Promise<Buffer> {
  const cached = (ctx.state as { rawBody?: Buffer }).rawBody;
  if (cached) return cached;
  const body = await readDecoded(ctx.req, codingsBefore(ctx), limitOf(ctx));
  (ctx.state as { rawBody?: Buffer }).rawBody = body;
  return body;
}

/** The body's codings, after refusing a body whose declared length is past the limit (413). */
function codingsBefore(ctx: Koa.Context): string[] {
  const codings = codingsOf(ctx.get('Content-Encoding'));
  const declared = Number(ctx.get('Content-Length'));
  if (Number.isFinite(declared) && declared > limitOf(ctx)) {
    ctx.req.resume();
    throw new PayloadTooLarge(limitOf(ctx));
  }
  return codings;
}

/** Bytes of an upload kept in memory as they pass to its file, for the checks of its first lines. */
const UPLOAD_HEAD_BYTES = 64 * 1024;

/** An upload saved to a file (saveUpload): what it is, and its first bytes, not all of them. */
export interface SavedUpload {
  type: string;
  /** The file holding the bytes. */
  file: string;
  size: number;
  /** Its first UPLOAD_HEAD_BYTES bytes (all of a smaller one). */
  head: Buffer;
  filename?: string;
  form: Form;
}

/**
 * Streams the upload (a multipart `file` part, or the first file part, or the raw body) into
 * `file`, under the body limit, never holding it whole (STYLE 7). A failed read leaves no file.
 */
export async function saveUpload(ctx: Koa.Context, file: string): Promise<SavedUpload> {
  const body = decodedBody(ctx.req, codingsBefore(ctx), limitOf(ctx));
  try {
    if (contentType(ctx) !== 'multipart/form-data') {
      return { type: contentType(ctx), file, ...(await writeChunks(body, file)), form: new Form(new Map()) };
    }
    return await saveMultipart(ctx, body, file);
  } catch (e) {
    await rm(file, { force: true });
    throw e;
  }
}

/** The multipart body's fields, and its file part written to `file` as it arrives. */
async function saveMultipart(ctx: Koa.Context, body: AsyncGenerator<Buffer>, file: string): Promise<SavedUpload> {
  const bb = newBusboy(ctx);
  const fields = new Map<string, string[]>();
  let saved: Promise<Omit<SavedUpload, 'form'>> | undefined;
  let savedField: string | undefined;
  const failed = new Promise<never>((_, reject) => {
    onFields(bb, fields, ctx, reject);
    bb.on('file', (field, stream, info) => {
      stream.on('error', (e: Error) => reject(new BadRequest(`malformed multipart/form-data: ${e.message}`)));
      // The part named `file`, else the first file part; others are read past.
      if (saved && (savedField === 'file' || field !== 'file')) return void stream.resume();
      savedField = field;
      const previous = saved;
      saved = (async () => {
        await previous?.catch(() => undefined);
        return { type: (info.mimeType || '').toLowerCase(), filename: info.filename, file, ...(await writeChunks(stream, file)) };
      })();
      saved.catch(reject);
    });
  });
  failed.catch(() => undefined);
  const closed = once(bb, 'close');
  const feed = (async () => {
    for await (const chunk of body) if (!bb.write(chunk)) await once(bb, 'drain');
    bb.end();
    await closed;
  })();
  feed.catch(() => undefined);
  await Promise.race([feed, failed]);
  if (!saved) throw new BadRequest('multipart body has no file part (expected a field named "file")');
  return { ...(await Promise.race([saved, failed])), form: new Form(fields) };
}

/** Writes `chunks` to `file` one at a time as they come; answers the bytes written and the first UPLOAD_HEAD_BYTES of them. */
async function writeChunks(chunks: AsyncIterable<Buffer>, file: string): Promise<{ size: number; head: Buffer }> {
  const out = await openPrivate(file, 'w');
  let size = 0;
  const head: Buffer[] = [];
  try {
    for await (const chunk of chunks) {
      if (size < UPLOAD_HEAD_BYTES) head.push(chunk.subarray(0, UPLOAD_HEAD_BYTES - size));
      await out.write(chunk);
      size += chunk.length;
    }
  } finally {
    await out.close();
  }
  return { size, head: Buffer.concat(head) };
}

function newBusboy(ctx: Koa.Context): busboy.Busboy {
  try {
    return busboy({ headers: ctx.req.headers, limits: { fileSize: limitOf(ctx), parts: limitsOf(ctx)?.maxParameters || Infinity } });
  } catch (e) {
    throw new BadRequest(`malformed multipart/form-data: ${(e as Error).message}`);
  }
}

/** Collects the form fields of `bb` into `fields`; its failures go to `reject`. */
function onFields(bb: busboy.Busboy, fields: Map<string, string[]>, ctx: Koa.Context, reject: (e: Error) => void): void {
  const maxParts = limitsOf(ctx)?.maxParameters || Infinity;
  bb.on('field', (name, value) => {
    const key = name.endsWith('[]') ? name.slice(0, -2) : name;
    fields.set(key, [...(fields.get(key) ?? []), value]);
  });
  bb.on('partsLimit', () => reject(new LimitExceeded('the number of parts of the multipart body', `more than ${maxParts}`, maxParts, 'MAX_PARAMETERS')));
  bb.on('error', (e: Error) => reject(new BadRequest(`malformed multipart/form-data: ${e.message}`)));
}

/** Form fields by name; `name[]` and repeated `name` collect every value (SPEC §1 rule 2). */
export class Form {
  constructor(private readonly fields: Map<string, string[]>) {}

  static fromSearchParams(params: URLSearchParams): Form {
    const fields = new Map<string, string[]>();
    for (const [k, v] of params) {
      const key = k.endsWith('[]') ? k.slice(0, -2) : k;
      const list = fields.get(key) ?? [];
      list.push(v);
      fields.set(key, list);
    }
    return new Form(fields);
  }

  get(name: string): string | undefined {
    return this.fields.get(name)?.[0];
  }

  all(name: string): string[] {
    return this.fields.get(name) ?? [];
  }

  has(name: string): boolean {
    return this.fields.has(name);
  }

  names(): string[] {
    return [...this.fields.keys()];
  }

  /** Fields other than `except`, first value each. */
  entries(except: readonly string[] = []): [string, string][] {
    // fromParams makes a field only with its first value.
    return [...this.fields].filter(([k]) => !except.includes(k)).map(([k, v]) => [k, v[0]!]);
  }
}

/** An uploaded file: a multipart `file` part or the raw body. */
export interface Upload {
  type: string;
  data: Buffer;
  filename?: string;
  /** Other multipart fields sent beside the file. */
  form: Form;
}

/** Form fields of an application/x-www-form-urlencoded or multipart/form-data body. */
export async function readForm(ctx: Koa.Context): Promise<Form> {
  const type = contentType(ctx);
  if (type === 'multipart/form-data') return (await readMultipart(ctx)).form;
  if (type === 'application/x-www-form-urlencoded' || type === '') {
    const text = (await readRaw(ctx)).toString('utf8');
    const limits = limitsOf(ctx);
    if (limits) checkParameters(countParameters(text), limits, 'form body');
    return Form.fromSearchParams(new URLSearchParams(text));
  }
  throw new UnsupportedMediaType(type, ['application/x-www-form-urlencoded', 'multipart/form-data']);
}

/** The body as an upload: multipart (field `file`, or the first file part) or raw. */
export async function readUpload(ctx: Koa.Context): Promise<Upload> {
  if (contentType(ctx) === 'multipart/form-data') {
    const { form, files } = await readMultipart(ctx);
    const file = files.find((f) => f.field === 'file') ?? files[0];
    if (!file) throw new BadRequest('multipart body has no file part (expected a field named "file")');
    return { type: file.type, data: file.data, filename: file.filename, form };
  }
  return { type: contentType(ctx), data: await readRaw(ctx), form: new Form(new Map()) };
}

interface FilePart {
  field: string;
  type: string;
  filename?: string;
  data: Buffer;
}

async function readMultipart(ctx: Koa.Context): Promise<{ form: Form; files: FilePart[] }> {
  const raw = await readRaw(ctx);
  const bb = newBusboy(ctx);
  return new Promise((resolve, reject) => {
    const fields = new Map<string, string[]>();
    const files: FilePart[] = [];
    onFields(bb, fields, ctx, reject);
    bb.on('file', (field, stream, info) => {
      const chunks: Buffer[] = [];
      // A form that ends inside a file part fails the file stream too; unheard, that error
      // would be uncaught and stop the process.
      stream.on('error', (e: Error) => reject(new BadRequest(`malformed multipart/form-data: ${e.message}`)));
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => files.push({ field, type: (info.mimeType || '').toLowerCase(), filename: info.filename, data: Buffer.concat(chunks) }));
    });
    bb.on('close', () => resolve({ form: new Form(fields), files }));
    bb.end(raw);
  });
}

/** Parses an RDF body by its Content-Type (or the multipart file's type). */
export async function readRdf(ctx: Koa.Context, baseIri: string, upload?: Upload): Promise<RDF.Quad[]> {
  const up = upload ?? (await readUpload(ctx));
  const syntax = syntaxOf(up.type) ?? (up.filename ? syntaxByExtension(up.filename) : undefined);
  if (!syntax) throw new UnsupportedMediaType(up.type, RDF_MEDIA_TYPES);
  if (up.data.length === 0) throw new BadRequest('empty body: expected RDF');
  const text = up.data.toString('utf8');
  const limits = limitsOf(ctx);
  if (limits) checkRdfNesting(text, syntax, limits);
  const quads = await parseRdf(text, syntax, baseIri);
  if (limits) checkTriples(quads.length, limits);
  return quads;
}

function syntaxByExtension(name: string) {
  const ext = name.toLowerCase().split('.').pop() ?? '';
  return ({ owl: 'rdfxml', rdf: 'rdfxml', xml: 'rdfxml', ttl: 'turtle', nt: 'ntriples', n3: 'n3', jsonld: 'jsonld' } as const)[ext as 'owl'];
}
