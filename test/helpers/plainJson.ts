// Reading application/json answers as a JSON-LD client would: expand them under the
// published context (fetched from the service) and compare the triples with the RDF answer.
import type * as RDF from '@rdfjs/types';
import jsonld from 'jsonld';
import Ajv2020 from 'ajv/dist/2020.js';
import { DataFactory, Parser } from 'n3';
import { canonical } from './rdf.ts';

const XSD = 'http://www.w3.org/2001/XMLSchema#';
const NUMERIC = ['double', 'float', 'decimal', 'integer', 'int', 'long'].map((t) => XSD + t);

/**
 * Numbers by value: JSON has one number type, so JSON-LD writes 5 back as xsd:integer and
 * 0.5 as xsd:double "5.0E-1", in the canonical form of 16 significant digits ("%1.15E",
 * JSON-LD 1.1 §8.6): the value to 16 digits is what must survive.
 */
export function numbersByValue(quads: readonly RDF.Quad[]): RDF.Quad[] {
  return quads.map((q) => {
    const o = q.object;
    if (o.termType !== 'Literal' || !NUMERIC.includes(o.datatype.value) || !Number.isFinite(Number(o.value))) return q;
    return DataFactory.quad(q.subject as never, q.predicate as never, DataFactory.literal(String(Number(Number(o.value).toPrecision(16))), DataFactory.namedNode('urn:number')) as never);
  });
}

/** Expands `doc` with its @context URL fetched over HTTP; the triples as a JSON-LD processor reads them. */
export async function jsonLdTriples(doc: object, base: string): Promise<RDF.Quad[]> {
  const documentLoader = async (url: string) => {
    const res = await fetch(url, { headers: { Accept: 'application/ld+json' } });
    if (!res.ok) throw new Error(`context ${url}: ${res.status}`);
    return { contextUrl: undefined, documentUrl: url, document: await res.json() as object };
  };
  const toRDF = jsonld.toRDF as unknown as (input: object, options: object) => Promise<string>;
  const nquads = await toRDF(doc, { format: 'application/n-quads', documentLoader, base, safe: true });
  return new Parser({ format: 'N-Quads' }).parse(nquads);
}

export async function sameTriples(json: object, ntriples: string, base: string): Promise<{ json: string; rdf: string }> {
  const fromJson = await jsonLdTriples(json, base);
  const fromRdf = new Parser({ format: 'N-Triples' }).parse(ntriples);
  return { json: await canonical(numbersByValue(fromJson)), rdf: await canonical(numbersByValue(fromRdf)) };
}

/** A validator of `name` in the document's components.schemas (JSON Schema 2020-12). */
export function schemaValidator(openapi: { components: { schemas: Record<string, unknown> } }) {
  // ajv is CommonJS: under Node's ESM interop its class is the default export's default.
  const Ajv = (Ajv2020 as unknown as { default?: typeof Ajv2020 }).default ?? Ajv2020;
  const ajv = new Ajv({ strict: true, allErrors: true, validateFormats: false });
  ajv.addSchema({ $id: 'https://openapi.invalid/schemas', $defs: JSON.parse(JSON.stringify(openapi.components.schemas).replaceAll('#/components/schemas/', 'https://openapi.invalid/schemas#/$defs/')) as object });
  return (name: string, value: unknown): string | undefined => {
    const validate = ajv.getSchema(`https://openapi.invalid/schemas#/$defs/${name}`);
    if (!validate) return `no schema ${name}`;
    return validate(value) ? undefined : ajv.errorsText(validate.errors);
  };
}
