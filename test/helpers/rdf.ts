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

const XSD_NS = 'http://www.w3.org/2001/XMLSchema#';
const INTEGER_TYPES = ['integer', 'int', 'long', 'short', 'byte', 'nonNegativeInteger', 'nonPositiveInteger', 'negativeInteger',
  'positiveInteger', 'unsignedInt', 'unsignedLong', 'unsignedShort', 'unsignedByte'].map((t) => XSD_NS + t);

/**
 * Literals by value, the way the store keeps them (Oxigraph stores numbers and booleans by
 * value: "3"^^xsd:int comes back as "3"^^xsd:integer, "50.0"^^xsd:float as "50").
 */
export function byValue(quads: readonly RDF.Quad[]): RDF.Quad[] {
  return quads.map((q) => {
    if (q.object.termType !== 'Literal') return q;
    const { value, datatype } = q.object;
    let canonicalLiteral: RDF.Literal | undefined;
    if (INTEGER_TYPES.includes(datatype.value) && /^[+-]?\d+$/.test(value.trim())) {
      canonicalLiteral = DataFactory.literal(BigInt(value.trim()).toString(), DataFactory.namedNode(XSD_NS + 'integer'));
    } else if (['float', 'double', 'decimal'].some((t) => datatype.value === XSD_NS + t) && Number.isFinite(Number(value))) {
      canonicalLiteral = DataFactory.literal(String(Number(value)), datatype);
    } else if (datatype.value === XSD_NS + 'boolean' && /^(0|1)$/.test(value)) {
      canonicalLiteral = DataFactory.literal(value === '1' ? 'true' : 'false', datatype);
    }
    return canonicalLiteral ? DataFactory.quad(q.subject as never, q.predicate as never, canonicalLiteral as never) : q;
  });
}
