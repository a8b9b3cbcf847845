// An error answer of any OpenTox service made readable: an ot:ErrorReport (SPEC §7.2) in
// RDF is reduced to its status, code, message, details and causes; text stays text.
import type * as RDF from '@rdfjs/types';
import { parseRdf } from '../rdf/parse.ts';
import { syntaxOf } from '../rdf/formats.ts';
import { OT } from '../rdf/vocab.ts';

export class ServiceError extends Error {
  constructor(readonly status: number, readonly url: string, readonly report: string) {
    super(`${url} answered ${status}\n${report}`);
  }
}

function reportLines(quads: readonly RDF.Quad[], node: string, indent: string): string[] {
  const one = (p: RDF.NamedNode) => quads.find((q) => q.subject.value === node && q.predicate.equals(p))?.object.value;
  const code = (one(OT.errorCode) ?? '').replace(/^.*#/, '');
  const out = [`${indent}${one(OT.statusCode) ?? ''} ${code}: ${one(OT.message) ?? ''}`.trimStart()];
  const actor = one(OT.actor);
  if (actor) out.push(`${indent}actor: ${actor}`);
  const details = one(OT.errorDetails);
  if (details) out.push(...details.split('\n').map((l) => `${indent}  ${l}`));
  for (const cause of quads.filter((q) => q.subject.value === node && q.predicate.equals(OT.errorCause))) {
    out.push(`${indent}caused by:`, ...reportLines(quads, cause.object.value, indent + '  '));
  }
  return out;
}

/** The body of an error answer as lines a person reads. */
export async function readableReport(type: string, body: string, url: string): Promise<string> {
  const syntax = syntaxOf(type);
  if (syntax && body.trim()) {
    try {
      const quads = await parseRdf(body, syntax, url);
      const causes = new Set(quads.filter((q) => q.predicate.equals(OT.errorCause)).map((q) => q.object.value));
      const top = quads.find((q) => q.predicate.equals(OT.errorCode) && !causes.has(q.subject.value));
      if (top) return reportLines(quads, top.subject.value, '').join('\n');
    } catch {
      // Not the RDF it claimed to be: show it as it came.
    }
  }
  return body.trim();
}

export async function serviceError(res: Response, url: string): Promise<ServiceError> {
  const body = await res.text();
  return new ServiceError(res.status, url, await readableReport(res.headers.get('content-type') ?? '', body, url));
}
