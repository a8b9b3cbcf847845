// Streaming serialisation (STYLE §7): a large resource (a 100k-row dataset) is written
// subject by subject as an async generator of strings, never built as one string.
import type * as RDF from '@rdfjs/types';
import { Writer } from 'n3';
import { RdfXmlWriter } from './rdfxml.ts';
import { asTriple } from './serialize.ts';
import { PREFIXES } from './vocab.ts';
import type { RdfSyntax } from './formats.ts';

/** All triples of one subject; producers yield one group per subject. */
export interface SubjectGroup {
  subject: RDF.Quad_Subject;
  triples: readonly RDF.Quad[];
}

export type GroupSource = AsyncIterable<SubjectGroup> | Iterable<SubjectGroup>;

/** Syntaxes that stream; JSON-LD needs the whole graph to compact, so it does not. */
export const STREAMABLE: ReadonlySet<RdfSyntax> = new Set(['rdfxml', 'ntriples', 'turtle', 'n3']);

/** RDF/XML: the header, one element per subject group, the footer. */
export async function* rdfXmlStream(groups: GroupSource, prefixes: Record<string, string> = PREFIXES): AsyncGenerator<string> {
  const w = new RdfXmlWriter(prefixes);
  yield w.header();
  for await (const g of groups) if (g.triples.length) yield w.subject(g.subject, g.triples);
  yield w.footer();
}

/** N-Triples: one chunk per subject group. */
export async function* nTriplesStream(groups: GroupSource): AsyncGenerator<string> {
  const w = new Writer({ format: 'N-Triples' });
  for await (const g of groups) yield w.quadsToString(g.triples.map(asTriple));
}

/** Turtle/N3: the @prefix block, then each group with prefixed names. */
export async function* turtleStream(groups: GroupSource, format: 'text/turtle' | 'text/n3' = 'text/turtle'): AsyncGenerator<string> {
  yield Object.entries(PREFIXES).map(([p, ns]) => `@prefix ${p}: <${ns}>.\n`).join('') + '\n';
  // quadsToString abbreviates with the writer's prefixes but does not repeat the block.
  const w = new Writer({ format, prefixes: PREFIXES });
  for await (const g of groups) yield w.quadsToString(g.triples.map(asTriple));
}

/** The stream for `syntax`; throws for JSON-LD (check STREAMABLE first). */
export function rdfStream(groups: GroupSource, syntax: RdfSyntax): AsyncGenerator<string> {
  switch (syntax) {
    case 'rdfxml': return rdfXmlStream(groups);
    case 'ntriples': return nTriplesStream(groups);
    case 'turtle': return turtleStream(groups);
    case 'n3': return turtleStream(groups, 'text/n3');
    case 'jsonld': throw new Error('JSON-LD output is compacted as a whole and cannot stream');
  }
}
