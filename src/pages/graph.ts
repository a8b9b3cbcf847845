// The data behind a page: the triples of the reply itself, read from its N-Triples variant,
// so a page shows exactly what an RDF client of the same URI gets.
import type { Readable } from 'node:stream';
import type * as RDF from '@rdfjs/types';
import { Parser } from 'n3';
import { N_TRIPLES } from '../rdf/formats.ts';
import type { Body, Reply } from '../http/reply.ts';

export async function bodyText(body: Body): Promise<string> {
  if (body === null) return '';
  if (typeof body === 'string') return body;
  if (Buffer.isBuffer(body)) return body.toString('utf8');
  const chunks: Buffer[] = [];
  for await (const c of body as Readable) chunks.push(typeof c === 'string' ? Buffer.from(c) : (c as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

/** The body of one of the reply's variants, or undefined when it has none of that type. */
export async function variantText(reply: Reply, type: string): Promise<string | undefined> {
  const v = reply.variants.find((x) => x.type === type);
  return v ? bodyText(await v.produce()) : undefined;
}

export class Graph {
  constructor(readonly quads: readonly RDF.Quad[]) {}

  objects(s: string, p: RDF.NamedNode): RDF.Term[] {
    return this.quads.filter((q) => q.subject.value === s && q.predicate.equals(p)).map((q) => q.object);
  }

  /** First value of s p, as text. */
  value(s: string, p: RDF.NamedNode): string | undefined {
    return this.objects(s, p)[0]?.value;
  }

  values(s: string, p: RDF.NamedNode): string[] {
    return this.objects(s, p).map((o) => o.value);
  }

  subjects(p: RDF.NamedNode, o?: RDF.Term): string[] {
    return [...new Set(this.quads.filter((q) => q.predicate.equals(p) && (!o || q.object.equals(o))).map((q) => q.subject.value))];
  }
}

export async function replyGraph(reply: Reply): Promise<Graph> {
  const text = await variantText(reply, N_TRIPLES);
  return new Graph(text ? new Parser({ format: 'N-Triples' }).parse(text) : []);
}
