// Calling other OpenTox services as a client (SPEC §7.2 rules 1-3). A remote error report
// becomes the cause of our 502; an unreachable service (refused, unknown host, time-out) is a
// 502 whose cause says which; trying several services, all failures become causes.
import type * as RDF from '@rdfjs/types';
import { BadGateway, BadRequest, type ErrorReportData } from '../errors.ts';
import { reportOf } from './errorReport.ts';
import { parseRemoteReport } from './remoteReport.ts';
import { RDF_TYPES, syntaxOf } from '../rdf/formats.ts';
import { isAbsoluteIri } from '../rdf/iri.ts';
import { parseRdf } from '../rdf/parse.ts';
import { ERR } from '../rdf/vocab.ts';

export interface RemoteOptions {
  /** Accept header (default any). */
  accept?: string;
  /** Access token passed on (SPEC §5): as header `subjectid`, and as a form parameter of form bodies. */
  subjectid?: string;
  method?: string;
  body?: string | Buffer | URLSearchParams;
  /** Content-Type of `body` (a URLSearchParams body is a form). */
  contentType?: string;
  /** Time limit of the whole exchange, in ms (default 30000). */
  timeoutMs?: number;
}

export interface RemoteResponse {
  status: number;
  /** The URL answered from, after redirects. */
  url: string;
  contentType: string;
  headers: Headers;
  body: Buffer;
}

const FORM = 'application/x-www-form-urlencoded';

/** A 502 whose one cause describes what went wrong with `uri`. */
function unreachable(uri: string, message: string, status = 502, code = ERR.RemoteServiceError.value): BadGateway {
  const cause: ErrorReportData = { status, code, actor: uri, message, causes: [] };
  return new BadGateway(`the remote service at ${uri} could not be used: ${message}`, [cause]);
}

function describeFailure(err: unknown, timeoutMs: number): { message: string; timeout: boolean } {
  const e = err as Error & { cause?: { code?: string; message?: string } };
  if (e.name === 'TimeoutError' || e.name === 'AbortError') return { message: `no answer within ${timeoutMs} ms`, timeout: true };
  const code = e.cause?.code ?? '';
  const known: Record<string, string> = {
    ECONNREFUSED: 'connection refused', ENOTFOUND: 'unknown host', EAI_AGAIN: 'host name lookup failed',
    ECONNRESET: 'connection reset', EHOSTUNREACH: 'host unreachable', ENETUNREACH: 'network unreachable',
    UND_ERR_CONNECT_TIMEOUT: 'connection timed out', UND_ERR_SOCKET: 'connection closed',
  };
  const timeout = code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'UND_ERR_HEADERS_TIMEOUT';
  return { message: known[code] ? `${known[code]} (${code})` : (e.cause?.message ?? e.message), timeout };
}

/** Calls `uri`; follows redirects; a remote error answer throws BadGateway with its report as cause. */
export async function fetchRemote(uri: string, options: RemoteOptions = {}): Promise<RemoteResponse> {
  if (!isAbsoluteIri(uri) || !/^https?:\/\//i.test(uri)) {
    throw new BadRequest(`not an http(s) URI of a service: ${JSON.stringify(uri.slice(0, 200))}`, { code: ERR.InvalidIRI });
  }
  const method = options.method ?? (options.body === undefined ? 'GET' : 'POST');
  const timeoutMs = options.timeoutMs ?? 30_000;
  const headers: Record<string, string> = { Accept: options.accept ?? '*/*' };
  if (options.subjectid) headers.subjectid = options.subjectid;
  let body = options.body;
  if (body instanceof URLSearchParams) {
    body = new URLSearchParams(body);
    if (options.subjectid && !body.has('subjectid')) body.set('subjectid', options.subjectid);
    headers['Content-Type'] = FORM;
  } else if (options.contentType) {
    headers['Content-Type'] = options.contentType;
  }
  let res: Response;
  let data: Buffer;
  try {
    res = await fetch(uri, { method, headers, body: body as BodyInit | undefined, redirect: 'follow', signal: AbortSignal.timeout(timeoutMs) });
    data = Buffer.from(await res.arrayBuffer());
  } catch (err) {
    const { message, timeout } = describeFailure(err, timeoutMs);
    throw timeout ? unreachable(uri, message, 504, ERR.GatewayTimeout.value) : unreachable(uri, message);
  }
  const contentType = res.headers.get('content-type') ?? '';
  if (res.status >= 400) {
    const report = await parseRemoteReport(res.status, contentType, data.toString('utf8'), res.url || uri);
    throw new BadGateway(`${method} ${uri} answered ${res.status}: ${report.message}`, [report]);
  }
  return { status: res.status, url: res.url || uri, contentType, headers: res.headers, body: data };
}

/** Accept for RDF: RDF/XML first, then the other syntaxes of the table. */
const RDF_ACCEPT = RDF_TYPES.filter((t) => t.type !== 'text/plain').map((t, i) => (i === 0 ? t.type : `${t.type};q=0.${9 - i}`)).join(', ');

/** The triples of a remote RDF resource; unusable answers are 502 with the reason as cause. */
export async function getRemoteRdf(uri: string, options: RemoteOptions = {}): Promise<RDF.Quad[]> {
  const res = await fetchRemote(uri, { accept: RDF_ACCEPT, ...options });
  const syntax = syntaxOf(res.contentType);
  if (!syntax) throw unreachable(uri, `answered ${res.contentType || 'no Content-Type'}, not RDF`);
  try {
    return await parseRdf(res.body.toString('utf8'), syntax, res.url);
  } catch (err) {
    throw unreachable(uri, (err as Error).message);
  }
}

/**
 * Tries `attempt` on each URI in turn (SPEC §7.2 rules 2-3): the first success wins and
 * earlier errors are dropped; when all fail, one 502 carries every failure as a cause.
 */
export async function firstSuccessful<T>(uris: readonly string[], attempt: (uri: string) => Promise<T>): Promise<T> {
  const causes: ErrorReportData[] = [];
  for (const uri of uris) {
    try {
      return await attempt(uri);
    } catch (err) {
      if (err instanceof BadGateway) causes.push(...err.causes);
      else causes.push(reportOf(err, uri, false));
    }
  }
  throw new BadGateway(`all ${uris.length} services failed: ${uris.join(', ')}`, causes);
}
