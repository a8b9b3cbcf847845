// The one table of RDF media types: what we write and what we parse.
import Negotiator from 'negotiator';
import { InternalError } from '../errors.ts';

export const RDF_XML = 'application/rdf+xml';
export const TURTLE = 'text/turtle';
export const N_TRIPLES = 'application/n-triples';
export const TEXT_PLAIN = 'text/plain';
export const N3 = 'text/n3';
export const JSON_LD = 'application/ld+json';
export const URI_LIST = 'text/uri-list';
/** Plain JSON: compact JSON-LD under the published context (src/rdf/plainJson.ts); written, never parsed as such. */
export const JSON_PLAIN = 'application/json';

export type RdfSyntax = 'rdfxml' | 'turtle' | 'ntriples' | 'n3' | 'jsonld';

/** Media type → syntax. Order matters: the first is the default (SPEC §1 rule 5). */
export const RDF_TYPES: ReadonlyArray<{ type: string; syntax: RdfSyntax }> = [
  { type: RDF_XML, syntax: 'rdfxml' },
  { type: TURTLE, syntax: 'turtle' },
  { type: N_TRIPLES, syntax: 'ntriples' },
  { type: TEXT_PLAIN, syntax: 'ntriples' },
  { type: N3, syntax: 'n3' },
  { type: JSON_LD, syntax: 'jsonld' },
];

/** Accepted on input as aliases (older clients and browsers send these). */
const INPUT_ALIASES: Record<string, RdfSyntax> = {
  'application/xml': 'rdfxml',
  'text/xml': 'rdfxml',
  'application/x-turtle': 'turtle',
  'application/turtle': 'turtle',
  'text/rdf+n3': 'n3',
  'application/json': 'jsonld',
};

export function syntaxOf(mediaType: string): RdfSyntax | undefined {
  const t = mediaType.split(';')[0]!.trim().toLowerCase(); // split gives at least one part
  return RDF_TYPES.find((f) => f.type === t)?.syntax ?? INPUT_ALIASES[t];
}

export const RDF_MEDIA_TYPES = RDF_TYPES.map((f) => f.type);

/**
 * Picks the best of `offered` for an Accept header (q-values, type/*, *\/*); an empty or
 * unservable Accept gets `offered[0]`, the default (SPEC §1 rule 5, §7.1 last line).
 */
export function negotiate(accept: string | undefined, offered: readonly string[]): string {
  const fallback = offered[0];
  if (fallback === undefined) throw new InternalError('content negotiation with nothing to offer');
  if (!accept || !accept.trim()) return fallback;
  const best = new Negotiator({ headers: { accept: qOnly(accept) } }).mediaTypes([...offered]);
  return best[0] ?? fallback;
}

/**
 * Accept without media-type parameters other than q: "text/turtle; charset=utf-8" asks for
 * Turtle, and our offers carry no parameters for Negotiator to match against.
 */
function qOnly(accept: string): string {
  return accept.split(',').map((range) => {
    const [type, ...params] = range.split(';').map((p) => p.trim());
    const q = params.find((p) => /^q\s*=/i.test(p));
    return q ? `${type};${q}` : type;
  }).join(', ');
}
