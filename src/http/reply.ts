// Handlers return data; the edge serialises (STYLE §2). A Reply is a status, headers and
// the representations a resource can take; `send` negotiates one of them.
import type { Readable } from 'node:stream';
import type * as RDF from '@rdfjs/types';
import { JSON_PLAIN, RDF_TYPES, URI_LIST } from '../rdf/formats.ts';
import { serialize } from '../rdf/serialize.ts';
import { jsonText, type JsonEdge } from '../rdf/plainJson.ts';
import { CONTEXT_PATH } from '../rdf/jsonContext.ts';

export type Body = string | Buffer | Readable | null;

export interface Variant {
  type: string;
  /** `edge`: what the request adds (the JSON context's URL, the resource asked for), for application/json. */
  produce: (edge?: JsonEdge) => Body | Promise<Body>;
}

/** Without a request (pages reading a variant), the context is named by its path. */
const NO_EDGE: JsonEdge = { contextUrl: CONTEXT_PATH };

export interface Reply {
  status: number;
  headers: Record<string, string>;
  /** The first variant is the default, served when Accept names none (SPEC §1 rule 5). */
  variants: Variant[];
  /**
   * The graphs the representations are built from (a graph names the graphs below it too,
   * src/store/versions.ts). When set, they are produced once per format and served with
   * validators until a write to one of them (src/http/cache.ts).
   */
  depends?: readonly string[];
  /**
   * A page of its own (src/pages/pages.ts) although the reply has no triples: text/html is
   * negotiated for it as for an RDF resource, and the page is rendered from its variants.
   */
  page?: boolean;
  /**
   * The answer of a job (src/tasks/taskReply.ts): resolves the URI of its task, recording it
   * first for a job done within the request. Prefer (src/http/prefer.ts) may then answer
   * another state of the same task.
   */
  task?: () => Promise<string>;
}

export interface ReplyOptions {
  status?: number;
  headers?: Record<string, string>;
}

type QuadSource = readonly RDF.Quad[] | (() => readonly RDF.Quad[] | Promise<readonly RDF.Quad[]>);

const uriListBody = (uris: readonly string[]): string => uris.map((u) => u + '\r\n').join('');

/** Variants of `quads` in every RDF syntax of the table, RDF/XML first, then plain JSON. */
export function rdfVariants(quads: QuadSource, options: { list?: boolean } = {}): Variant[] {
  const get = async () => (typeof quads === 'function' ? await quads() : quads);
  return [
    ...RDF_TYPES.map(({ type, syntax }) => ({ type, produce: async () => serialize(await get(), syntax) })),
    { type: JSON_PLAIN, produce: async (edge?: JsonEdge) => jsonText(await get(), { ...(edge ?? NO_EDGE), list: options.list }) },
  ];
}

/** An RDF resource; with `uris`, text/uri-list is offered too. */
export function rdfReply(quads: QuadSource, options: ReplyOptions & { uris?: readonly string[] } = {}): Reply {
  const variants = rdfVariants(quads);
  if (options.uris) variants.push(uriListVariant(options.uris));
  return { status: options.status ?? 200, headers: options.headers ?? {}, variants };
}

export function uriListVariant(uris: readonly string[]): Variant {
  return { type: URI_LIST, produce: () => uriListBody(uris) };
}

/**
 * A list of URIs (SPEC: lists answer text/uri-list or RDF). With `quads`, RDF/XML stays
 * the default; without, only text/uri-list is offered.
 */
export function uriListReply(uris: readonly string[], options: ReplyOptions & { quads?: QuadSource; uriListFirst?: boolean } = {}): Reply {
  const list = uriListVariant(uris);
  const variants = options.quads ? rdfVariants(options.quads, { list: true }) : [];
  if (options.uriListFirst) variants.unshift(list);
  else variants.push(list);
  return { status: options.status ?? 200, headers: options.headers ?? {}, variants };
}

/** A body of one fixed media type. */
export function bodyReply(type: string, body: Body | (() => Body | Promise<Body>), options: ReplyOptions = {}): Reply {
  return { status: options.status ?? 200, headers: options.headers ?? {}, variants: [{ type, produce: typeof body === 'function' ? body : () => body }] };
}

/** A reply with no body (e.g. 200 after DELETE, HEAD answers). */
export function emptyReply(options: ReplyOptions = {}): Reply {
  return { status: options.status ?? 200, headers: options.headers ?? {}, variants: [] };
}
