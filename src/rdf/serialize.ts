// Serialises quads in any syntax of the format table. Graph names are dropped: a response
// is the triples of one or more resources.
import type * as RDF from '@rdfjs/types';
import { Writer, DataFactory } from 'n3';
import jsonld from 'jsonld';
import { PREFIXES } from './vocab.ts';
import { toRdfXml } from './rdfxml.ts';
import type { RdfSyntax } from './formats.ts';

export const asTriple = (q: RDF.Quad): RDF.Quad => DataFactory.quad(q.subject as never, q.predicate as never, q.object as never);

/** The JSON-LD context of compacted output: our prefixes, so keys read as ot:hasStatus. */
export const JSONLD_CONTEXT: Record<string, string> = { ...PREFIXES };

export async function serialize(quads: readonly RDF.Quad[], syntax: RdfSyntax): Promise<string> {
  switch (syntax) {
    case 'rdfxml':
      return toRdfXml(quads);
    case 'turtle':
    case 'n3':
      return writeN3(quads, syntax === 'n3' ? 'text/n3' : 'text/turtle', PREFIXES);
    case 'ntriples':
      return new Writer({ format: 'N-Triples' }).quadsToString(quads.map(asTriple));
    case 'jsonld':
      return JSON.stringify(await toJsonLd(quads), null, 2) + '\n';
  }
}

/** Turtle/N3 with the @prefix block (quadsToString alone would omit it). */
function writeN3(quads: readonly RDF.Quad[], format: string, prefixes: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const writer = new Writer({ format, prefixes });
    writer.addQuads(quads.map(asTriple));
    writer.end((err, result: string) => (err ? reject(err) : resolve(result)));
  });
}

async function toJsonLd(quads: readonly RDF.Quad[]): Promise<object> {
  const nquads = new Writer({ format: 'N-Triples' }).quadsToString(quads.map(asTriple));
  const expanded = await jsonld.fromRDF(nquads, { format: 'application/n-quads' });
  return jsonld.compact(expanded, JSONLD_CONTEXT);
}
