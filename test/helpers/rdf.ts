// RDF helpers for tests: graph isomorphism (blank nodes included) via canonical N-Quads,
// and a strict independent RDF/XML parse.
import type * as RDF from '@rdfjs/types';
import { Writer, DataFactory } from 'n3';
import jsonld from 'jsonld';
import { RdfXmlParser } from 'rdfxml-streaming-parser';

const asTriple = (q: RDF.Quad) => DataFactory.quad(q.subject as never, q.predicate as never, q.object as never);

/** URDNA2015 canonical N-Quads of the triples (graph names dropped). */
export async function canonical(quads: readonly RDF.Quad[]): Promise<string> {
  const nq = new Writer({ format: 'N-Triples' }).quadsToString(quads.map(asTriple));
  const canonize = jsonld.canonize as unknown as (input: string, options: object) => Promise<string>;
  return canonize(nq, { algorithm: 'URDNA2015', inputFormat: 'application/n-quads' });
}

/** Parses RDF/XML with rdfxml-streaming-parser, failing on any error. */
export function parseRdfXmlStrict(text: string, baseIRI = 'http://example.org/base'): Promise<RDF.Quad[]> {
  return new Promise((resolve, reject) => {
    const out: RDF.Quad[] = [];
    const p = new RdfXmlParser({ baseIRI });
    p.on('data', (q: RDF.Quad) => out.push(q));
    p.on('error', reject);
    p.on('end', () => resolve(out));
    p.write(text);
    p.end();
  });
}
