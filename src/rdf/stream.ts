// Streaming RDF writers (STYLE §7): triples arrive in chunks and leave as text chunks, so
// a 100k-entry dataset is never one string. RDF/XML, N-Triples, Turtle, N3 and JSON-LD.
import type * as RDF from '@rdfjs/types';
import { Writer } from 'n3';
import type { RdfSyntax } from './formats.ts';
import { groupBySubject, RdfXmlWriter } from './rdfxml.ts';
import { asTriple, JSONLD_CONTEXT } from './serialize.ts';
import { PREFIXES, RDF as RDFNS } from './vocab.ts';

// N3's quadsToString abbreviates with the prefixes but does not declare them: the stream
// declares them once, up front.
const turtleChunk = (quads: readonly RDF.Quad[], format: string): string => new Writer({ prefixes: PREFIXES, format }).quadsToString(quads.map(asTriple));
const prefixLines = (): string => Object.entries(PREFIXES).map(([p, ns]) => `@prefix ${p}: <${ns}> .\n`).join('') + '\n';

function jsonLdTerm(t: RDF.Term): object {
  if (t.termType === 'Literal') {
    if (t.language) return { '@value': t.value, '@language': t.language };
    return t.datatype.value.endsWith('#string') ? { '@value': t.value } : { '@value': t.value, '@type': t.datatype.value };
  }
  return { '@id': t.termType === 'BlankNode' ? `_:${t.value}` : t.value };
}

/** One JSON-LD node object (expanded keys under the prefix context) per subject. */
function jsonLdNodes(quads: readonly RDF.Quad[]): string[] {
  return [...groupBySubject(quads).values()].map(({ subject, triples }) => {
    const node: Record<string, unknown> = { '@id': subject.termType === 'BlankNode' ? `_:${subject.value}` : subject.value };
    for (const t of triples) {
      if (t.predicate.equals(RDFNS.type)) {
        ((node['@type'] ??= []) as string[]).push(t.object.value);
        continue;
      }
      ((node[t.predicate.value] ??= []) as object[]).push(jsonLdTerm(t.object));
    }
    return JSON.stringify(node);
  });
}

/** Text chunks of `chunks` in `syntax`, with backpressure when read through Readable.from. */
export async function* rdfTextStream(chunks: Iterable<RDF.Quad[]> | AsyncIterable<RDF.Quad[]>, syntax: RdfSyntax): AsyncGenerator<string> {
  if (syntax === 'rdfxml') {
    const w = new RdfXmlWriter();
    yield w.header();
    for await (const chunk of chunks) {
      let out = '';
      for (const { subject, triples } of groupBySubject(chunk).values()) out += w.subject(subject, triples);
      yield out;
    }
    yield w.footer();
    return;
  }
  if (syntax === 'jsonld') {
    yield `{\n  "@context": ${JSON.stringify(JSONLD_CONTEXT)},\n  "@graph": [\n`;
    let first = true;
    for await (const chunk of chunks) {
      const nodes = jsonLdNodes(chunk);
      if (nodes.length === 0) continue;
      yield (first ? '    ' : ',\n    ') + nodes.join(',\n    ');
      first = false;
    }
    yield '\n  ]\n}\n';
    return;
  }
  if (syntax !== 'ntriples') yield prefixLines();
  for await (const chunk of chunks) {
    if (syntax === 'ntriples') yield new Writer({ format: 'N-Triples' }).quadsToString(chunk.map(asTriple));
    else yield turtleChunk(chunk, syntax === 'n3' ? 'text/n3' : 'text/turtle');
  }
}
