// The written form of a write: what a commit sends to either engine. Triples travel as
// N-Triples per graph (DESIGN: storage rules), every IRI checked first; the embedded journal
// stores this form (embedded/records.ts) and the SPARQL store sends it as an update.
import { Writer, DataFactory } from 'n3';
import type * as RDF from '@rdfjs/types';
import { isValidIri } from './binder.ts';

export type WriteOp =
  | { op: 'replace'; graph: string; quads: readonly RDF.Quad[] }
  | { op: 'add'; graph: string; quads: readonly RDF.Quad[] }
  | { op: 'remove'; graph: string; quads: readonly RDF.Quad[] }
  | { op: 'drop'; graph: string };

/** The journal form of a write: triples as N-Triples text. */
export interface JournalOp {
  op: WriteOp['op'];
  graph: string;
  nt?: string;
}

export type JournalRecord = JournalOp[];

export function checkGraph(graph: string): string {
  if (!isValidIri(graph)) throw new Error(`invalid graph IRI ${JSON.stringify(graph)}`);
  return graph;
}

function checkTerm(t: RDF.Term): void {
  if (t.termType === 'NamedNode' && !isValidIri(t.value)) throw new Error(`invalid IRI in write: ${JSON.stringify(t.value)}`);
  if (t.termType === 'Literal' && !isValidIri(t.datatype.value)) throw new Error(`invalid datatype IRI: ${t.datatype.value}`);
}

/** N-Triples of `quads` (their graph is ignored), after checking every IRI. */
export function toNTriples(quads: readonly RDF.Quad[]): string {
  for (const q of quads) {
    checkTerm(q.subject);
    checkTerm(q.predicate);
    checkTerm(q.object);
  }
  const w = new Writer({ format: 'N-Triples' });
  return w.quadsToString(quads.map((q) => DataFactory.quad(q.subject as RDF.Quad_Subject, q.predicate as RDF.Quad_Predicate, q.object as RDF.Quad_Object)) as never);
}

/** The record of `ops`. A removal cannot name a blank node: it would match nothing on replay. */
export function encodeOps(ops: readonly WriteOp[]): JournalRecord {
  return ops.map((o) => {
    const graph = checkGraph(o.graph);
    if (o.op === 'drop') return { op: o.op, graph };
    if (o.op === 'remove' && o.quads.some((q) => q.subject.termType === 'BlankNode' || q.object.termType === 'BlankNode')) {
      throw new Error('remove cannot address blank nodes (each write has its own); replace the graph instead');
    }
    return { op: o.op, graph, nt: toNTriples(o.quads) };
  });
}
