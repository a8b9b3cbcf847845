// Calling other OpenTox services as a client (SPEC §7.2 rule 1). A remote error report
// becomes the cause of our 502; an unreachable service (refused, unknown host, time-out) is a
// 502 whose cause says which.
import { BadGateway } from '../errors.ts';
import { parseRemoteReport } from './remoteReport.ts';
import { outboundRequest, type OutboundOptions, type OutboundResponse } from './outbound/client.ts';
import { masked, type OutboundConfig } from './outbound/policy.ts';

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
