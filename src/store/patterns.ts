// The SELECTs behind the structural reads of the Store interface (match, describe), one text
// for both stores: each store passes how it writes a bound term (the SPARQL store writes
// NaN in its stored form, quirks.ts) and reads the rows into quads itself.
import type * as RDF from '@rdfjs/types';

/** How a store writes a bound term of a pattern. */
export type TermWriter = (t: RDF.NamedNode | RDF.Literal) => string;

/**
 * `SELECT` of the unbound positions of a pattern in one graph (or every graph when `g` is
 * null); `unbound` names the variables it projects, all bound in every solution.
 */
export function matchSelect(s: RDF.Term | null, p: RDF.Term | null, o: RDF.Term | null, g: RDF.NamedNode | null, write: TermWriter): { query: string; unbound: string[] } {
  const positions: Array<[string, RDF.Term | null]> = [['s', s], ['p', p], ['o', o], ['g', g]];
  const unbound = positions.filter(([, t]) => t === null).map(([name]) => name);
  const at = (name: string, t: RDF.Term | null) => (t === null ? `?${name}` : write(t as RDF.NamedNode | RDF.Literal));
  const projected = unbound.map((v) => `?${v}`).join(' ') || '(1 AS ?one)';
  return { query: `SELECT ${projected} WHERE { GRAPH ${at('g', g)} { ${at('s', s)} ${at('p', p)} ${at('o', o)} } }`, unbound };
}

/** `SELECT ?s ?p ?o` of every triple in graph `g` whose subject is one of `subjects`. */
export function describeSelect(g: RDF.NamedNode, subjects: readonly RDF.NamedNode[], write: TermWriter): string {
  return `SELECT ?s ?p ?o WHERE { ${describePattern(g, subjects, write)} }`;
}

/** The graph pattern of describeSelect: `?s ?p ?o` in graph `g`, ?s one of `subjects`. */
export function describePattern(g: RDF.NamedNode, subjects: readonly RDF.NamedNode[], write: TermWriter): string {
  // A plain loop: this runs once per chunk of a large dataset stream (embedded/store.ts on V8).
  let values = '';
  for (let i = 0; i < subjects.length; i++) values += write(subjects[i]!) + ' ';
  return `GRAPH ${write(g)} { VALUES ?s { ${values}} ?s ?p ?o }`;
}
