// Calling other OpenTox services as a client (SPEC §7.2 rules 1-3). A remote error report
// becomes the cause of our 502; an unreachable service (refused, unknown host, time-out) is a
// 502 whose cause says which; trying several services, all failures become causes.
import type * as RDF from '@rdfjs/types';
import { BadGateway, type ErrorReportData } from '../errors.ts';
import { reportOf } from './errorReport.ts';
import { parseRemoteReport } from './remoteReport.ts';
import { RDF_TYPES, syntaxOf } from '../rdf/formats.ts';
import { parseRdf } from '../rdf/parse.ts';
import { outboundRequest, type OutboundOptions, type OutboundResponse } from './outbound/client.ts';
import { masked, unreachable, type OutboundConfig } from './outbound/policy.ts';

export type RemoteOptions = OutboundOptions;
export type RemoteResponse = OutboundResponse;

/**
 * Calls `uri` through the outbound client (src/http/outbound): the policy, redirects and
 * limits apply there. A remote error answer throws BadGateway with its report as cause.
 */
export async function fetchRemote(config: OutboundConfig, uri: string, options: RemoteOptions = {}): Promise<RemoteResponse> {
  const res = await outboundRequest(config, uri, options);
  if (res.status >= 400) {
    const method = options.method ?? (options.body === undefined ? 'GET' : 'POST');
    const report = await parseRemoteReport(res.status, res.contentType, res.body.toString('utf8'), masked(res.url));
    throw new BadGateway(`${method} ${masked(res.url)} answered ${res.status}`, [report]);
  }
  return res;
}

/** Accept for RDF: RDF/XML first, then the other syntaxes of the table. */
const RDF_ACCEPT = RDF_TYPES.filter((t) => t.type !== 'text/plain').map((t, i) => (i === 0 ? t.type : `${t.type};q=0.${9 - i}`)).join(', ');

/** The triples of a remote RDF resource; unusable answers are 502 with the reason as cause. */
export async function getRemoteRdf(config: OutboundConfig, uri: string, options: RemoteOptions = {}): Promise<RDF.Quad[]> {
  const res = await fetchRemote(config, uri, { accept: RDF_ACCEPT, ...options });
  const syntax = syntaxOf(res.contentType);
  if (!syntax) throw unreachable(uri, `answered ${res.contentType || 'no Content-Type'}, not RDF`);
  try {
    return await parseRdf(res.body.toString('utf8'), syntax, res.url);
  } catch (err) {
    throw unreachable(uri, (err as Error).message.slice(0, 200));
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
  throw new BadGateway(`all ${uris.length} services failed: ${uris.map(masked).join(', ')}`, causes);
}
