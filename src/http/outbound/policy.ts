// The one outbound policy (DESIGN "Outbound requests and trust"): which URIs the service
// calls, at which address, and which of them may receive the caller's token. Every request to
// another service is checked here, the first one and every redirect alike.
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import type { Config } from '../../config.ts';
import { BadGateway, BadRequest, type ErrorReportData } from '../../errors.ts';
import { redact } from '../../util/redact.ts';
import { ERR } from '../../rdf/vocab.ts';
import { refusedRange } from './addresses.ts';

export type OutboundConfig = Pick<Config, 'baseUrl' | 'authServiceUrl' | 'remoteOrigins' | 'tokenOrigins' | 'bodyLimit' | 'remoteConnectTimeoutMs' | 'remoteTimeoutMs' | 'remoteMaxFetches'>;

/** Where a request goes: the URL as sent, and the one address that was checked and is connected to. */
export interface Target {
  url: URL;
  address: string;
  family: 4 | 6;
}

export type Lookup = (host: string) => Promise<Array<{ address: string; family: number }>>;

const systemLookup: Lookup = (host) => dnsLookup(host, { all: true, verbatim: true });

/** The URI as it may be shown: user-info and tokens masked (src/util/redact.ts), and kept short. */
export const masked = (uri: string): string => {
  const text = redact(uri);
  return text.length > 300 ? text.slice(0, 300) + '…' : text;
};

const originOf = (uri: string): string | undefined => {
  try {
    const origin = new URL(uri).origin;
    return origin === 'null' ? undefined : origin;
  } catch {
    return undefined;
  }
};

/** The service's own origin and those the operator vouches for: called whatever their address. */
export function trustedOrigin(config: OutboundConfig, origin: string): boolean {
  return origin === originOf(config.baseUrl) || origin === originOf(config.authServiceUrl) || config.remoteOrigins.includes(origin);
}

/** The caller's token goes to the service's own origin, its authentication service and TOKEN_ORIGINS, nowhere else. */
export function mayCarryToken(config: OutboundConfig, url: URL): boolean {
  return url.origin === originOf(config.baseUrl) || url.origin === originOf(config.authServiceUrl) || config.tokenOrigins.includes(url.origin);
}

/** 400 RemoteURIRefused naming the (masked) URI and the rule it broke. */
export function refused(what: string, uri: string, rule: string): BadRequest {
  return new BadRequest(`${what} ${masked(uri)} is refused: ${rule}`, { code: ERR.RemoteURIRefused });
}

/** A 502 whose one cause says why `uri` could not be used (SPEC §7.2 rule 1). */
export function unreachable(uri: string, message: string, status = 502, code = ERR.RemoteServiceError.value): BadGateway {
  const cause: ErrorReportData = { status, code, actor: masked(uri), message, causes: [] };
  return new BadGateway(`the remote service at ${masked(uri)} could not be used: ${message}`, [cause]);
}

const LOOKUP_FAILURES: Record<string, string> = { ENOTFOUND: 'unknown host', EAI_AGAIN: 'host name lookup failed', ENODATA: 'unknown host' };

/**
 * Checks `uri` and resolves its host once: the address answered is the one connected to (no
 * second lookup a rebinding DNS server could answer differently). Refusals are 400
 * RemoteURIRefused; a host that does not resolve is 502, the remote side's failure.
 * `what` names the URI in messages ("dataset_uri", "a redirect to").
 */
export async function resolveTarget(config: OutboundConfig, uri: string, what = 'the URI', lookup: Lookup = systemLookup): Promise<Target> {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    throw new BadRequest(`${what} is not an http(s) URI of a service: ${JSON.stringify(masked(uri))}`, { code: ERR.InvalidIRI });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new BadRequest(`${what} ${masked(uri)} is refused: only http and https URIs are called`, { code: ERR.InvalidIRI });
  }
  // WHATWG URL has already read decimal, octal and hex IPv4 forms and dropped a trailing dot.
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: Array<{ address: string; family: number }>;
  if (isIP(host)) addresses = [{ address: host, family: isIP(host) }];
  else {
    try {
      addresses = await lookup(host);
    } catch (e) {
      const code = (e as { code?: string }).code ?? '';
      throw unreachable(uri, LOOKUP_FAILURES[code] ? `${LOOKUP_FAILURES[code]} (${code})` : `host name lookup failed (${(e as Error).message})`);
    }
  }
  if (addresses.length === 0) throw unreachable(uri, 'unknown host (no address)');
  if (!trustedOrigin(config, url.origin)) {
    // Every address is checked: a name answering a public and a private address is refused.
    for (const { address } of addresses) {
      const range = refusedRange(address);
      if (range) {
        const at = address === host ? address : `${host} resolves to ${address}, which`;
        throw refused(what, uri, `${at} is ${/^[aeiou]/i.test(range) ? 'an' : 'a'} ${range} address; the operator may list ${url.origin} in REMOTE_ORIGINS to allow it`);
      }
    }
  }
  const first = addresses[0]!;
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}

/**
 * Before a task is created (SPEC §2.1 "400 incorrect dataset URI"): a URI the policy refuses
 * answers 400 now, not as a failed task later. A host that does not resolve is left to the
 * job, whose 502 says so, as before.
 */
export async function admitRemote(config: OutboundConfig, uri: string, name: string, lookup?: Lookup): Promise<void> {
  try {
    await resolveTarget(config, uri, name, lookup);
  } catch (e) {
    if (!(e instanceof BadGateway)) throw e;
  }
}
