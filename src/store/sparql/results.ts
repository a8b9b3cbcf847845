// SPARQL 1.1 Query Results JSON Format (W3C Recommendation) read into RDF/JS terms. The
// quirks of stores that still answer in the 1.0 draft are read here, in one place:
// "typed-literal" for a datatyped literal, and an ASK answered as a one-row SELECT whose
// single binding is 1/0 or true/false (Virtuoso: `__ASK_RETVAL`).
import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'n3';
import type { Row } from '../api.ts';

const { namedNode, literal, blankNode } = DataFactory;

interface JsonTerm {
  type: 'uri' | 'literal' | 'typed-literal' | 'bnode';
  value: string;
  datatype?: string;
  'xml:lang'?: string;
}

export interface JsonResults {
  head?: { vars?: string[] };
  boolean?: boolean;
  results?: { bindings: Array<Record<string, JsonTerm>> };
}

const XSD_STRING = 'http://www.w3.org/2001/XMLSchema#string';

export function termOf(t: JsonTerm): RDF.Term {
  switch (t.type) {
    case 'uri':
      return namedNode(t.value);
    case 'bnode':
      // Labels stay as the store gave them, so the same node reads the same in one answer.
      return blankNode(t.value.replace(/^nodeID:\/\//, '').replace(/^_:/, ''));
    default: {
      const lang = t['xml:lang'];
      if (lang) return literal(t.value, lang);
      // RDF 1.1: a simple literal is an xsd:string; stores that keep them apart (Virtuoso)
      // would otherwise give two terms for one value.
      if (t.datatype && t.datatype !== XSD_STRING) return literal(t.value, namedNode(t.datatype));
      return literal(t.value);
    }
  }
}

/** The rows of a SELECT answer. */
export function rowsOf(json: JsonResults): Row[] {
  const bindings = json.results?.bindings ?? [];
  return bindings.map((b) => {
    const row: Row = {};
    for (const [name, term] of Object.entries(b)) row[name] = termOf(term);
    return row;
  });
}

/** The answer of an ASK, in the standard form or as a one-binding row. */
export function booleanOf(json: JsonResults): boolean {
  if (typeof json.boolean === 'boolean') return json.boolean;
  const bindings = json.results?.bindings;
  if (!bindings) throw new Error('the SPARQL store answered an ASK with neither a boolean nor bindings');
  // Virtuoso: one row `__ASK_RETVAL` = 1 for true, no row for false.
  const value = bindings[0] ? Object.values(bindings[0])[0]?.value : undefined;
  return value === '1' || value === 'true';
}
