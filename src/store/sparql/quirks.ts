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
import type { Row } from './results.ts';

const { literal } = DataFactory;
const SUFFIX = '__lexical';

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
    out[name] = term.termType === 'Literal' && lexical !== undefined && lexical.value !== term.value ? rebuilt(term, lexical.value) : term;
  }
  return out;
}

const rebuilt = (term: RDF.Literal, value: string): RDF.Literal => literal(value, term.language || term.datatype);
