// A Reply whose RDF streams (STYLE §7): large resources such as 100k-row datasets are written
// subject group by subject group with backpressure, never built as one string. JSON-LD is
// compacted as a whole, so that variant collects the triples first.
import { Readable } from 'node:stream';
import type * as RDF from '@rdfjs/types';
import { RDF_TYPES } from '../rdf/formats.ts';
import { serialize } from '../rdf/serialize.ts';
import { rdfStream, STREAMABLE, type GroupSource } from '../rdf/stream.ts';
import { uriListVariant, type Reply, type ReplyOptions, type Variant } from './reply.ts';

/** `groups` is called once for the chosen variant: a fresh iteration per response. */
export function rdfStreamVariants(groups: () => GroupSource): Variant[] {
  return RDF_TYPES.map(({ type, syntax }) => ({
    type,
    produce: async () => {
      if (STREAMABLE.has(syntax)) return Readable.from(rdfStream(groups(), syntax));
      const all: RDF.Quad[] = [];
      for await (const g of groups()) all.push(...g.triples);
      return serialize(all, syntax);
    },
  }));
}

/** A streamed RDF resource (RDF/XML first, the default); with `uris`, text/uri-list too. */
export function rdfStreamReply(groups: () => GroupSource, options: ReplyOptions & { uris?: readonly string[] } = {}): Reply {
  const variants = rdfStreamVariants(groups);
  if (options.uris) variants.push(uriListVariant(options.uris));
  return { status: options.status ?? 200, headers: options.headers ?? {}, variants };
}
