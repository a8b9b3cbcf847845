// Error reports never echo secrets: tokens and passwords in parameters, in
// Authorization headers, in OpenSSO-shaped tokens anywhere, and in a URI's user-info
// (http://user:secret@host/). Applied to every report by reportOf (src/http/errorReport.ts).
import type { ErrorReportData } from '../errors.ts';

const HIDDEN = '***';

const RULES: Array<[RegExp, string]> = [
  // subjectid=..., tokenid: ..., password=... in forms, queries, headers and messages.
  [/\b(subjectid|tokenid|token\.id|password|passwd|pwd)("?\s*[=:]\s*"?)[^\s&;,"'<>]+/gi, `$1$2${HIDDEN}`],
  [/\b(Bearer|Basic)(\s+)[^\s"',;<>]+/gi, `$1$2${HIDDEN}`],
  // user-info of a URI: scheme://anything@
  [/\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@"'<>]+@/gi, `$1${HIDDEN}@`],
  // OpenSSO tokens (and ours) start with AQIC.
  [/\bAQIC[\x21-\x7e]{8,}/g, HIDDEN],
];

export function redact(text: string): string;
export function redact(text: string | undefined): string | undefined;
export function redact(text: string | undefined): string | undefined {
  if (!text) return text;
  return RULES.reduce((t, [pattern, replacement]) => t.replace(pattern, replacement), text);
}

/** The report with every message, detail, actor and cause redacted. */
export function redactReport(report: ErrorReportData): ErrorReportData {
  return {
    ...report,
    actor: redact(report.actor),
    message: redact(report.message),
    details: redact(report.details),
    causes: report.causes.map(redactReport),
  };
}
