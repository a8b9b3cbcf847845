// Terms as they cross between the store's thread and the event loop: plain RDF/JS fields
// without a prototype (structured clone drops Oxigraph's and n3's classes).
import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'n3';

export interface TermJson {
  termType: string;
  value: string;
  language?: string;
  datatype?: { value: string };
}

/** Any RDF/JS term (Oxigraph's or n3's) in its thread-crossing form. */
export function termJson(t: RDF.Term): TermJson {
  if (t.termType !== 'Literal') return { termType: t.termType, value: t.value };
  return { termType: t.termType, value: t.value, language: t.language, datatype: { value: t.datatype.value } };
}

/** The n3 term of a crossed one. */
export function termFromJson(t: TermJson): RDF.Term {
  switch (t.termType) {
    case 'NamedNode': return DataFactory.namedNode(t.value);
    case 'BlankNode': return DataFactory.blankNode(t.value);
    case 'DefaultGraph': return DataFactory.defaultGraph();
    default: return DataFactory.literal(t.value, t.language || DataFactory.namedNode(t.datatype!.value));
  }
}
