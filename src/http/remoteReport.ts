// Reads the error report a remote OpenTox service answered (SPEC §7.2), in any RDF syntax of
// the format table or as text, into ErrorReportData, so it can become the cause of our 502.
// What a remote says is data under suspicion (DESIGN "Outbound requests and trust"): a report
// is kept, bounded; any other body gives at most MAX_TEXT characters, and only when it is text.
import type * as RDF from '@rdfjs/types';
import type { ErrorReportData } from '../errors.ts';
import { syntaxOf } from '../rdf/formats.ts';
import { parseRdf } from '../rdf/parse.ts';
import { ERR, OT, RDF as RDFNS } from '../rdf/vocab.ts';

/** The error code a bare HTTP status stands for, when the remote sent no report. */
export function codeOfStatus(status: number): string {
  const byStatus: Record<number, RDF.NamedNode> = {
    400: ERR.BadRequest, 401: ERR.Unauthorized, 403: ERR.Forbidden, 404: ERR.NotFound, 405: ERR.MethodNotAllowed,
    406: ERR.NotAcceptable, 409: ERR.Conflict, 413: ERR.PayloadTooLarge, 415: ERR.UnsupportedMediaType,
    429: ERR.TooManyRequests, 500: ERR.InternalServerError, 502: ERR.BadGateway, 503: ERR.ServiceUnavailable,
    504: ERR.GatewayTimeout,
  };
  return (byStatus[status] ?? ERR.ErrorCode).value;
}

/** Characters kept of a reply that is not a report. */
export const MAX_TEXT = 200;
/** Characters kept of each field of a remote report, its causes at most MAX_CAUSES deep and wide. */
const MAX_FIELD = 2000;
const MAX_CAUSES = 8;

const clip = (text: string | undefined, max: number) => (text !== undefined && text.length > max ? text.slice(0, max) + '…' : text);

/** Report data from a remote error response: its RDF report if it sent one, else its text. */
export async function parseRemoteReport(status: number, contentType: string, body: string, actor: string): Promise<ErrorReportData> {
  const syntax = syntaxOf(contentType);
  // text/plain is in the format table as N-Triples, but error bodies in text/plain are prose.
  if (syntax && !/^text\/plain/i.test(contentType)) {
    try {
      const report = fromQuads(await parseRdf(body, syntax, actor), status);
      if (report) return report;
    } catch {
      // Not the RDF it claims to be: fall through and keep the text.
    }
  }
  // Images, archives and other binary bodies: nothing of them is quoted, only that they came.
  if (contentType && !/^text\/|[/+](xml|json)\b/i.test(contentType)) {
    return { status, code: codeOfStatus(status), actor, message: `HTTP ${status} (${contentType.split(';')[0]}, ${body.length} characters)`, causes: [] };
  }
  return fromText(status, body, actor);
}

/** Our own text form reads "STATUS Code: message"; other services' text is kept as details. */
function fromText(status: number, body: string, actor: string): ErrorReportData {
  const text = body.length > MAX_TEXT ? body.slice(0, MAX_TEXT) + '…' : body;
  const ours = /^(\d{3}) ([A-Za-z]+): (.*)$/m.exec(text);
  if (ours && text.startsWith(ours[0])) {
    // The pattern's three groups are not optional: a match has them all.
    return { status: Number(ours[1]), code: ERR.ns + ours[2]!, actor, message: ours[3]!, details: text.slice(ours[0].length).trim() || undefined, causes: [] };
  }
  const firstLine = text.trim().split('\n')[0] ?? '';
  return { status, code: codeOfStatus(status), actor, message: firstLine || `HTTP ${status}`, details: text.trim() || undefined, causes: [] };
}

function fromQuads(quads: RDF.Quad[], status: number): ErrorReportData | undefined {
  const reports = quads.filter((q) => q.predicate.equals(RDFNS.type) && q.object.equals(OT.ErrorReport)).map((q) => q.subject);
  const nested = new Set(quads.filter((q) => q.predicate.equals(OT.errorCause)).map((q) => key(q.object)));
  const root = reports.find((r) => !nested.has(key(r)));
  return root ? build(quads, root, status, new Set()) : undefined;
}

const key = (t: RDF.Term) => `${t.termType}:${t.value}`;

function build(quads: RDF.Quad[], node: RDF.Term, status: number, seen: Set<string>, depth = 0): ErrorReportData {
  seen.add(key(node));
  const values = (p: RDF.NamedNode) => quads.filter((q) => q.subject.equals(node) && q.predicate.equals(p)).map((q) => q.object);
  const one = (p: RDF.NamedNode) => values(p)[0]?.value;
  const declared = Number(one(OT.statusCode));
  const own = Number.isInteger(declared) && declared >= 100 ? declared : status;
  return {
    status: own,
    code: clip(one(OT.errorCode), MAX_FIELD) ?? codeOfStatus(own),
    actor: clip(one(OT.actor), MAX_FIELD),
    message: clip(one(OT.message), MAX_FIELD) ?? `HTTP ${own}`,
    details: clip(one(OT.errorDetails) ?? one(OT.term('details')), MAX_FIELD),
    causes: depth >= MAX_CAUSES ? [] : values(OT.errorCause).filter((c) => !seen.has(key(c))).slice(0, MAX_CAUSES).map((c) => build(quads, c, own, seen, depth + 1)),
  };
}
