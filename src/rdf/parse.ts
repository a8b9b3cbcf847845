// Parses request bodies in every RDF syntax of the format table into quads, with parse
// errors that name line and column (issue #2: bad input).
import type * as RDF from '@rdfjs/types';
import { Parser, DataFactory } from 'n3';
import { RdfXmlParser } from 'rdfxml-streaming-parser';
import jsonld from 'jsonld';
import { BadRequest } from '../http/errors.ts';
import { ERR, OT_NS, OT_NS_12 } from './vocab.ts';
import type { RdfSyntax } from './formats.ts';

const NAMES: Record<RdfSyntax, string> = {
  rdfxml: 'RDF/XML', turtle: 'Turtle', ntriples: 'N-Triples', n3: 'N3', jsonld: 'JSON-LD',
};

function rdfError(syntax: RdfSyntax, message: string): BadRequest {
  return new BadRequest(`malformed ${NAMES[syntax]}: ${message}`, { code: ERR.RDFSyntaxError });
}

export async function parseRdf(text: string, syntax: RdfSyntax, baseIri: string): Promise<RDF.Quad[]> {
  const quads = await parseRaw(text, syntax, baseIri);
  return quads.map(normaliseNamespace);
}

async function parseRaw(text: string, syntax: RdfSyntax, baseIri: string): Promise<RDF.Quad[]> {
  switch (syntax) {
    case 'turtle':
    case 'ntriples':
    case 'n3': {
      const format = { turtle: 'text/turtle', ntriples: 'N-Triples', n3: 'text/n3' }[syntax];
      try {
        return new Parser({ format, baseIRI: baseIri }).parse(text);
      } catch (e) {
        // N3.js messages already read "... on line N."
        throw rdfError(syntax, (e as Error).message);
      }
    }
    case 'rdfxml':
      return parseRdfXml(text, baseIri);
    case 'jsonld': {
      let doc: unknown;
      try {
        doc = JSON.parse(text);
      } catch (e) {
        throw rdfError(syntax, (e as Error).message);
      }
      try {
        const nq = (await jsonld.toRDF(doc as object, { format: 'application/n-quads', base: baseIri })) as unknown as string;
        return new Parser({ format: 'N-Quads' }).parse(nq);
      } catch (e) {
        throw rdfError(syntax, (e as Error).message);
      }
    }
  }
}

function parseRdfXml(text: string, baseIri: string): Promise<RDF.Quad[]> {
  return new Promise((resolve, reject) => {
    const quads: RDF.Quad[] = [];
    const parser = new RdfXmlParser({ baseIRI: baseIri, trackPosition: true });
    parser.on('data', (q: RDF.Quad) => quads.push(q));
    parser.on('error', (e: Error) => reject(rdfError('rdfxml', e.message)));
    parser.on('end', () => resolve(quads));
    parser.write(text);
    parser.end();
  });
}

/** `api/1.2#` terms are read as the `api/1.1#` ones we emit (DESIGN: conventions). */
function normaliseNamespace(q: RDF.Quad): RDF.Quad {
  const fix = <T extends RDF.Term>(t: T): T =>
    t.termType === 'NamedNode' && t.value.startsWith(OT_NS_12) ? (DataFactory.namedNode(OT_NS + t.value.slice(OT_NS_12.length)) as unknown as T) : t;
  if (![q.subject, q.predicate, q.object].some((t) => t.termType === 'NamedNode' && t.value.startsWith(OT_NS_12))) return q;
  return DataFactory.quad(fix(q.subject) as never, fix(q.predicate) as never, fix(q.object) as never, q.graph as never);
}
