// ot:ErrorReport (SPEC §7.2) as data, as triples and as plain text.
import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'n3';
import { HttpError, InsufficientStorage, InternalError, type ErrorReportData } from '../errors.ts';
import { isSpaceError } from '../util/spaceError.ts';
import { ERR, OT, RDF as RDFNS, XSD } from '../rdf/vocab.ts';
// Reports never echo tokens or passwords (SPEC §5.1: a token is a credential); auth owns the rules.
import { redactReport } from '../util/redact.ts';

const { quad, namedNode, literal, blankNode } = DataFactory;

/** Turns any thrown value into report data; unknown errors become 500 with the original as cause. */
export function reportOf(err: unknown, actor: string, debug: boolean): ErrorReportData {
  // A full disk met anywhere (structure files, uploads) is a 507, not a server fault.
  const e = err instanceof HttpError ? err
    : isSpaceError(err) ? new InsufficientStorage('there is no room on the disk holding the service\'s data; nothing of this request was kept', { cause: err })
    : new InternalError('internal error', { cause: err });
  const original = e instanceof InternalError && !(err instanceof HttpError) ? (err as Error) : undefined;
  let details = e.details;
  if (debug) details = [details, (original ?? e).stack].filter(Boolean).join('\n');
  else if (original && original.message) details = details ?? original.message;
  return redactReport({ status: e.status, code: e.code.value, actor, message: e.message, details, causes: e.causes });
}

/** Triples of a report under `subject` (an IRI for reports stored with a task, else a blank node). */
export function reportQuads(report: ErrorReportData, subject: RDF.NamedNode | RDF.BlankNode = blankNode()): RDF.Quad[] {
  const out: RDF.Quad[] = [
    quad(subject, RDFNS.type, OT.ErrorReport),
    quad(subject, OT.errorCode, namedNode(report.code)),
    quad(subject, OT.statusCode, literal(String(report.status), XSD.int)),
    quad(subject, OT.message, literal(report.message)),
  ];
  if (report.actor) out.push(quad(subject, OT.actor, namedNode(report.actor)));
  if (report.details) out.push(quad(subject, OT.errorDetails, literal(report.details)));
  report.causes.forEach((cause, i) => {
    const node = subject.termType === 'NamedNode' ? namedNode(`${subject.value}-cause${i + 1}`) : blankNode();
    out.push(quad(subject, OT.errorCause, node), ...reportQuads(cause, node));
  });
  return out;
}

/** The plain-text form: what a person reading curl output needs. */
export function reportText(report: ErrorReportData, indent = ''): string {
  const code = report.code.replace(ERR.ns, '');
  let text = `${indent}${report.status} ${code}: ${report.message}\n`;
  if (report.actor) text += `${indent}actor: ${report.actor}\n`;
  if (report.details) text += report.details.split('\n').map((l) => `${indent}  ${l}\n`).join('');
  for (const c of report.causes) text += `${indent}caused by:\n${reportText(c, indent + '  ')}`;
  return text;
}
