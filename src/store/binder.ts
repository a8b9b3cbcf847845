// Queries are files (STYLE §5): queries/*.rq and *.ru carry named placeholders {{name}};
// this one binder turns values into SPARQL terms, validating IRIs and escaping literals,
// so user input can never change the shape of a query.
import type * as RDF from '@rdfjs/types';
import { BadRequest } from '../errors.ts';
import { ERR, XSD } from '../rdf/vocab.ts';
import { iriHint, isAbsoluteIri } from '../rdf/iri.ts';

/** A value bound to a placeholder. Strings are literals; IRIs go through `iri()`. */
export type Bindable =
  | RDF.NamedNode
  | RDF.Literal
  | string
  | number
  | boolean
  | { iris: readonly string[] }
  | { raw: number };

/**
 * True when `value` is an absolute IRI (RFC 3987) that can be written as <value> in
 * SPARQL/Turtle and that Oxigraph accepts: the same rule guards queries and writes, so
 * no write can reach the journal that the store would then refuse to apply or replay.
 */
export function isValidIri(value: string): boolean {
  return isAbsoluteIri(value);
}

/** Throws 400 InvalidIRI unless `value` is a usable absolute IRI. */
export function checkIri(value: string, what = 'IRI'): string {
  if (!isValidIri(value)) {
    const hint = iriHint(value);
    throw new BadRequest(`${what} is not a valid absolute IRI: ${JSON.stringify(value.slice(0, 200))}`, {
      code: ERR.InvalidIRI,
      ...(hint ? { details: hint } : {}),
    });
  }
  return value;
}

/** SPARQL STRING_LITERAL_QUOTE with every character that could end or break it escaped. */
export function escapeLiteral(value: string): string {
  return '"' + value.replace(/[\\"\n\r\t\b\f]/g, (c) => ({
    '\\': '\\\\', '"': '\\"', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f',
  })[c]!) + '"';
}

const LANG = /^[a-zA-Z]+(-[a-zA-Z0-9]+)*$/;

export function termToSparql(value: Bindable): string {
  if (typeof value === 'string') return escapeLiteral(value);
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new BadRequest(`not a finite number: ${value}`);
    return Number.isInteger(value) ? String(value) : `${escapeLiteral(String(value))}^^<${XSD.double.value}>`;
  }
  if ('raw' in value) {
    if (!Number.isInteger(value.raw) || value.raw < 0) throw new BadRequest(`not a non-negative integer: ${value.raw}`);
    return String(value.raw);
  }
  if ('iris' in value) return value.iris.map((i) => `<${checkIri(i)}>`).join(' ');
  if (value.termType === 'NamedNode') return `<${checkIri(value.value)}>`;
  const lit = escapeLiteral(value.value);
  if (value.language) {
    if (!LANG.test(value.language)) throw new BadRequest(`invalid language tag "${value.language}"`);
    return `${lit}@${value.language}`;
  }
  if (value.datatype && value.datatype.value !== XSD.string.value) return `${lit}^^<${checkIri(value.datatype.value)}>`;
  return lit;
}

const PLACEHOLDER = /\{\{([A-Za-z_][A-Za-z0-9_]*)\}\}/g;

/** Substitutes every {{name}} of `template`; a missing or extra binding is a programming error. */
export function bind(template: string, values: Record<string, Bindable>, name = 'query'): string {
  const used = new Set<string>();
  const text = template.replace(PLACEHOLDER, (_m, key: string) => {
    if (!(key in values)) throw new Error(`${name}: no value bound for {{${key}}}`);
    used.add(key);
    return termToSparql(values[key]!); // `key in values` above
  });
  for (const key of Object.keys(values)) if (!used.has(key)) throw new Error(`${name}: {{${key}}} is not a placeholder`);
  return text;
}
