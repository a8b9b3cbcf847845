// application/json: compact JSON-LD under the published context (src/rdf/jsonContext.ts).
// Keys are plain terms, references are {"id": IRI}, nodes referenced once are nested in
// the node that references them, and the resource asked for is the top object; what else
// the triples describe goes under "included" (JSON-LD 1.1 §4.7). Numbers are JSON numbers:
// a JSON-LD reader gets the same triples, numbers as xsd:integer or as xsd:double to 16
// significant digits (JSON-LD 1.1 §8.6's canonical form).
import type * as RDF from '@rdfjs/types';
import { groupBySubject } from './rdfxml.ts';
import { compactIri, TERM_BY_IRI, typeName } from './jsonContext.ts';
import { RDF as RDFNS, XSD } from './vocab.ts';

export type JsonNode = Record<string, unknown>;

/** What the edge knows and the writer needs: where the context is, which resource was asked for. */
export interface JsonEdge {
  contextUrl: string;
  resource?: string;
  /** The triples of a list: a @graph unless the resource itself is among them. */
  list?: boolean;
}

const NUMERIC = new Set([XSD.double, XSD.float, XSD.decimal, XSD.int, XSD.integer, XSD.long].map((t) => t.value));
const INTEGER = new Set([XSD.int, XSD.integer, XSD.long].map((t) => t.value));

const idOf = (t: RDF.Term): string => (t.termType === 'BlankNode' ? `_:${t.value}` : t.value);

function literalValue(l: RDF.Literal): unknown {
  if (l.language) return { '@value': l.value, '@language': l.language };
  const dt = l.datatype.value;
  if (dt === XSD.string.value) return l.value;
  if (dt === XSD.boolean.value && (l.value === 'true' || l.value === 'false')) return l.value === 'true';
  if (NUMERIC.has(dt) && /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(l.value.trim())) {
    const n = Number(l.value);
    if (Number.isFinite(n) && (!INTEGER.has(dt) || Number.isSafeInteger(n))) return n;
  }
  return { '@value': l.value, '@type': compactIri(dt) };
}

/** The key and value of one triple's object (not nested): a term when its coercion fits. */
function entryOf(p: RDF.Term, o: RDF.Term): [string, unknown] {
  const term = TERM_BY_IRI.get(p.value);
  if (term?.datatype) {
    if (o.termType === 'Literal' && !o.language && o.datatype.value === term.datatype) return [term.key, o.value];
    return [compactIri(p.value), o.termType === 'Literal' ? literalValue(o) : { id: idOf(o) }];
  }
  return [term?.key ?? compactIri(p.value), o.termType === 'Literal' ? literalValue(o) : { id: idOf(o) }];
}

/** Deepest nesting written; JSON-LD processors recurse once per level. */
const MAX_DEPTH = 8;

/** Keys always written as arrays, even for one value. */
const ARRAY_KEYS = new Set(['type', ...[...TERM_BY_IRI.values()].filter((t) => t.set).map((t) => t.key)]);

/**
 * Node objects of a set of triples: top-level first in the order their subjects appear,
 * `root` (when it is one of them) first of all. A subject referenced by exactly one triple
 * of another subject is nested there.
 */
export function jsonNodes(quads: readonly RDF.Quad[], root?: string): JsonNode[] {
  const groups = groupBySubject(quads);
  const refs = new Map<string, number>();
  for (const q of quads) {
    if (q.object.termType === 'Literal' || q.predicate.equals(RDFNS.type)) continue;
    const key = idOf(q.object);
    if (key !== idOf(q.subject) && groups.has(key)) refs.set(key, (refs.get(key) ?? 0) + 1);
  }
  const nested = (key: string) => key !== root && refs.get(key) === 1;
  // A well-formed rdf:List of blank nodes each referenced once is written as {"@list": [...]}
  // (JSON-LD 1.1 §4.3.2), not as a chain nested as deep as the list is long.
  const listItems = (key: string): RDF.Term[] | undefined => {
    const items: RDF.Term[] = [];
    const cells: string[] = [];
    for (let k = key; k !== RDFNS.nil.value; ) {
      const triples = groups.get(k)?.triples;
      const first = triples?.find((t) => t.predicate.equals(RDFNS.first));
      const rest = triples?.find((t) => t.predicate.equals(RDFNS.rest));
      if (!triples || triples.length !== 2 || !first || !rest || !k.startsWith('_:') || !nested(k) || rest.object.termType === 'Literal') return undefined;
      items.push(first.object);
      cells.push(k);
      k = idOf(rest.object);
      if (cells.includes(k)) return undefined;
    }
    cells.forEach((c) => done.add(c));
    return items;
  };
  const done = new Set<string>();
  const build = (key: string, top: boolean, depth = 0): JsonNode => {
    done.add(key);
    const { subject, triples } = groups.get(key)!; // every key passed in is a subject of groups
    const fields = new Map<string, unknown[]>();
    const push = (k: string, v: unknown) => {
      const values = fields.get(k);
      if (values) values.push(v);
      else fields.set(k, [v]);
    };
    for (const t of triples) {
      if (t.predicate.equals(RDFNS.type) && t.object.termType !== 'Literal') {
        push('type', typeName(t.object.value));
        continue;
      }
      const [k, v] = entryOf(t.predicate, t.object);
      const child = t.object.termType === 'Literal' ? undefined : idOf(t.object);
      const list = child !== undefined && !done.has(child) && (child === RDFNS.nil.value || nested(child)) ? listItems(child) : undefined;
      if (list) {
        push(k, { '@list': list.map((item) => (item.termType === 'Literal' ? literalValue(item) : { id: idOf(item) })) });
        continue;
      }
      // Past MAX_DEPTH a chain (a long list of named cells) goes on at the top level instead.
      push(k, child !== undefined && nested(child) && !done.has(child) && depth < MAX_DEPTH ? build(child, false, depth + 1) : v);
    }
    const node: JsonNode = {};
    // A blank node's label matters only where something else refers to it.
    if (subject.termType === 'NamedNode' || (top && refs.has(key))) node.id = idOf(subject);
    for (const [k, values] of fields) node[k] = values.length === 1 && !ARRAY_KEYS.has(k) ? values[0] : values;
    return node;
  };
  const keys = [...groups.keys()];
  const ordered = root !== undefined && groups.has(root) ? [root, ...keys.filter((k) => k !== root)] : keys;
  const out: JsonNode[] = [];
  for (const k of ordered) if (!nested(k) && !done.has(k)) out.push(build(k, true));
  // Subjects only reachable through a cycle of single references, or below MAX_DEPTH: top-level too.
  for (const k of ordered) if (!done.has(k)) out.push(build(k, true));
  return out;
}

/** The whole document: the resource (or the one node) as the top object, else a @graph. */
export function jsonDocument(quads: readonly RDF.Quad[], edge: JsonEdge): object {
  const nodes = jsonNodes(quads, edge.resource);
  const [first, ...rest] = nodes;
  if (first && ((nodes.length === 1 && !edge.list) || (edge.resource !== undefined && first.id === edge.resource))) {
    return { '@context': edge.contextUrl, ...first, ...(rest.length > 0 ? { included: rest } : {}) };
  }
  return { '@context': edge.contextUrl, '@graph': nodes };
}

export const jsonText = (quads: readonly RDF.Quad[], edge: JsonEdge): string => JSON.stringify(jsonDocument(quads, edge), null, 2) + '\n';
