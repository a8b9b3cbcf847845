// What the service's own SELECTs need rewritten before a store answers them as SPARQL 1.1
// says (results.ts reads the answers' quirks). Documented in docs/engines.md.
//
// Literals as they were written. Virtuoso answers an xsd:double in its own short form, six
// significant digits ("3578.239" comes back as "3578.24", "1" as "1.0"), in every results
// format and in CONSTRUCT output; STR() of the same term gives the lexical form it stored.
// So every SELECT the service sends also asks for STR() of each projected variable, and a
// literal is rebuilt from that form with its datatype and language. Portable SPARQL 1.1
// (§17.4.2.5 STR): a store that answers literals exactly gives the same form twice.
import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'n3';
import sparqljs from 'sparqljs';
import type { Row } from '../api.ts';

const { literal, namedNode, quad } = DataFactory;
const SUFFIX = '__lexical';

const XSD = 'http://www.w3.org/2001/XMLSchema#';
const XSD_STRING = `${XSD}string`;
const FLOATING = new Set([`${XSD}double`, `${XSD}float`]);
/**
 * Not-a-number as it is kept in the store: the lexical form is the literal's own datatype.
 * Virtuoso 7.2 orders a NaN double inconsistently in its column-store indexes, and the
 * next inserts near it fail with "Insert stopped because out of seg data ... RDF_QUAD_*",
 * for good: every later write to that database fails. XSD 1.1 §3.3.5 makes NaN a value of
 * xsd:double and xsd:float (a statistic that is not defined, a descriptor with no value),
 * so the service writes it; this datatype keeps it out of the store's numeric order.
 */
const NOT_A_NUMBER = 'urn:opentox-service:notANumber';
/** The canonical lexical forms (XSD 1.1 §3.3.5.2) of what Virtuoso's STR() answers. */
const SPECIAL: Record<string, string> = { nan: 'NaN', inf: 'INF', '+inf': 'INF', '-inf': '-INF' };

const isFloating = (t: RDF.Term): t is RDF.Literal => t.termType === 'Literal' && FLOATING.has(t.datatype.value);

/** A term as the store keeps it: NaN under its stand-in datatype, every other term as is. */
export function toStored<T extends RDF.Term>(t: T): T | RDF.Literal {
  return isFloating(t) && t.value === 'NaN' ? literal(t.datatype.value, namedNode(NOT_A_NUMBER)) : t;
}

/** A term as the service wrote it, from the store's form. */
export function fromStored(t: RDF.Term): RDF.Term {
  if (t.termType !== 'Literal') return t;
  if (t.datatype.value === NOT_A_NUMBER && FLOATING.has(t.value)) return literal('NaN', namedNode(t.value));
  const special = isFloating(t) ? SPECIAL[t.value.toLowerCase()] : undefined;
  return special !== undefined && special !== t.value ? literal(special, t.datatype) : t;
}

/** A quad whose object is kept in the store's form. */
export function storedQuad(q: RDF.Quad): RDF.Quad {
  const o = toStored(q.object);
  return o === q.object ? q : quad(q.subject, q.predicate, o as RDF.Quad_Object, q.graph);
}

/** A quad read from the store, its object as the service wrote it. */
export function writtenQuad(q: RDF.Quad): RDF.Quad {
  const o = fromStored(q.object);
  return o === q.object ? q : quad(q.subject, q.predicate, o as RDF.Quad_Object, q.graph);
}

/**
 * The same literals read through a CONSTRUCT, which Virtuoso writes as N-Triples several
 * times faster than it writes the SELECT's JSON (a dataset stream reads its entries this
 * way). Its output prints doubles short as well, so each literal without a language is sent
 * back as STR() of it, typed with its own datatype's IRI under LEXICAL: a datatype the store
 * keeps opaque. A position a solution left unbound, which Virtuoso 7.2 has answered while
 * the graph was being written (store.ts pageOf), would silently drop its triple from the
 * template (SPARQL 1.1 §16.2: a template triple with an unbound variable is not produced),
 * so it is sent as UNBOUND instead, and the read is asked again.
 */
const LEXICAL = 'urn:opentox-service:lexical:';
export const UNBOUND = 'urn:opentox-service:unbound';

/** CONSTRUCT of `?s ?p ?o` matched by `pattern`, literals as they were written, at most `limit` triples. */
export function lexicalConstruct(pattern: string, limit: number): string {
  const typed = `STRDT(STR(?o), IRI(CONCAT("${LEXICAL}", STR(DATATYPE(?o)))))`;
  return `CONSTRUCT { ?s ?p__read ?o__read } WHERE { ${pattern} `
    + `BIND(COALESCE(?p, <${UNBOUND}>) AS ?p__read) `
    + `BIND(COALESCE(IF(isLiteral(?o) && LANG(?o) = "", ${typed}, ?o), <${UNBOUND}>) AS ?o__read) } LIMIT ${limit}`;
}

/**
 * A copy of `s` that holds only its own characters. The N-Triples parser cuts each term out
 * of the answer's text, and V8 keeps such a substring as a slice of the whole: one IRI kept
 * for long (a dataset stream remembers the compounds it has written) would keep its whole
 * answer alive, 350 KB per 100 dataset entries. The concatenation is flattened into a new
 * string before it is sliced (what V8 does for a slice of a concatenation).
 */
const own = (s: string): string => (' ' + s).slice(1);

function ownTerm<T extends RDF.Term>(t: T): T {
  if (t.termType === 'NamedNode') return namedNode(own(t.value)) as RDF.Term as T;
  if (t.termType === 'BlankNode') return DataFactory.blankNode(own(t.value)) as RDF.Term as T;
  return t;
}

/** A triple of lexicalConstruct's answer as it was written; undefined for an unbound position. */
export function lexicalQuad(q: RDF.Quad, graph: RDF.Quad_Graph): RDF.Quad | undefined {
  if (q.predicate.value === UNBOUND || (q.object.termType === 'NamedNode' && q.object.value === UNBOUND)) return undefined;
  let o: RDF.Term = q.object;
  if (o.termType === 'Literal') {
    const datatype = o.datatype.value.startsWith(LEXICAL) ? o.datatype.value.slice(LEXICAL.length) : o.datatype.value;
    o = fromStored(o.language ? literal(own(o.value), o.language) : datatype === XSD_STRING ? literal(own(o.value)) : literal(own(o.value), namedNode(datatype)));
  } else {
    o = ownTerm(o);
  }
  return quad(ownTerm(q.subject), ownTerm(q.predicate), o as RDF.Quad_Object, graph);
}

/**
 * `GRAPH ?g { }` (every named graph, SPARQL 1.1 §13.3) matches no graph on Virtuoso; a
 * sub-select of the graphs that hold a triple means the same, since a store keeps no
 * empty named graph (SPARQL 1.1 Update §3.1.1 lets it drop them).
 */
export function withGraphEnumeration(query: string): string {
  return query.replace(/GRAPH\s+(\?\w+)\s*\{\s*\}/g, (_, g: string) => `{ SELECT DISTINCT ${g} WHERE { GRAPH ${g} { ?any__s ?any__p ?any__o } } }`);
}

/** `query` (a SELECT) also projecting STR(?v) AS ?v__lexical for each plain projected ?v. */
export function withLexicalForms(query: string): string {
  const parsed = new sparqljs.Parser().parse(query);
  if (parsed.type !== 'query' || parsed.queryType !== 'SELECT') return query;
  const plain = parsed.variables.filter((v): v is sparqljs.VariableTerm => 'termType' in v && v.termType === 'Variable');
  if (plain.length === 0) return query;
  const projection = parsed.variables as sparqljs.Variable[];
  for (const v of plain) {
    projection.push({
      expression: { type: 'operation', operator: 'str', args: [v] },
      variable: DataFactory.variable(v.value + SUFFIX),
    } as sparqljs.VariableExpression);
  }
  return new sparqljs.Generator().stringify(parsed);
}

/** True for a column withLexicalForms added. */
export const isLexicalColumn = (name: string): boolean => name.endsWith(SUFFIX);

/** A row with its literals rebuilt from their lexical forms, and the STR() columns removed. */
export function lexicalRow(row: Row): Row {
  const out: Row = {};
  for (const [name, term] of Object.entries(row)) {
    if (name.endsWith(SUFFIX)) continue;
    const lexical = row[name + SUFFIX];
    out[name] = fromStored(term.termType === 'Literal' && lexical !== undefined && lexical.value !== term.value ? rebuilt(term, lexical.value) : term);
  }
  return out;
}

const rebuilt = (term: RDF.Literal, value: string): RDF.Literal => literal(value, term.language || term.datatype);

/**
 * The pages of `query` (a SELECT without a LIMIT of its own), `limit` rows each: the text of
 * the page from a given offset, in a fixed order: the query's own ORDER BY, then every
 * projected variable (SPARQL 1.1 §15.4: OFFSET is only meaningful with ORDER BY). The order
 * is given inside a sub-select and the page outside it: Virtuoso refuses an ORDER BY whose
 * OFFSET + LIMIT passes its row cap ("SR353 Sorted TOP clause"), and keeps a sub-select's
 * order for the page taken from it. Undefined for a query that pages itself, or projects `*`.
 */
export function selectPages(query: string, limit: number): ((offset: number) => string) | undefined {
  const parsed = new sparqljs.Parser().parse(query);
  if (parsed.type !== 'query' || parsed.queryType !== 'SELECT' || parsed.limit !== undefined || parsed.offset !== undefined) return undefined;
  const vars: sparqljs.VariableTerm[] = [];
  for (const v of parsed.variables) {
    if (!('termType' in v)) vars.push((v as sparqljs.VariableExpression).variable);
    else if (v.termType === 'Variable') vars.push(v);
    else return undefined;
  }
  const inner = { ...parsed, prefixes: {}, from: undefined, order: [...(parsed.order ?? []), ...vars.map((expression) => ({ expression }))] };
  const generator = new sparqljs.Generator();
  return (offset) => generator.stringify({
    type: 'query', queryType: 'SELECT', prefixes: parsed.prefixes, from: parsed.from, variables: vars,
    where: [{ type: 'group', patterns: [inner] }], limit, offset,
  } as unknown as sparqljs.SelectQuery);
}

/**
 * A SELECT with its own ORDER BY and page (the lists: LIMIT n OFFSET m) as the same page of
 * a sub-select that keeps the order, for the reason selectPages gives: Virtuoso refuses an
 * ORDER BY whose OFFSET + LIMIT passes its row cap (SR353), so a list's page past the
 * 10,000th item would fail. Any other query is answered as it is.
 */
export function pageOutsideOrder(query: string): string {
  const parsed = new sparqljs.Parser().parse(query);
  if (parsed.type !== 'query' || parsed.queryType !== 'SELECT' || !parsed.order?.length || (parsed.limit === undefined && parsed.offset === undefined)) return query;
  const vars: sparqljs.VariableTerm[] = [];
  for (const v of parsed.variables) {
    if (!('termType' in v)) vars.push((v as sparqljs.VariableExpression).variable);
    else if (v.termType === 'Variable') vars.push(v);
    else return query;
  }
  const inner = { ...parsed, prefixes: {}, from: undefined, limit: undefined, offset: undefined };
  return new sparqljs.Generator().stringify({
    type: 'query', queryType: 'SELECT', prefixes: parsed.prefixes, from: parsed.from, variables: vars,
    where: [{ type: 'group', patterns: [inner] }], limit: parsed.limit, offset: parsed.offset,
  } as unknown as sparqljs.SelectQuery);
}
