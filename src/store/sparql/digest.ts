// HTTP Digest access authentication (RFC 7616, MD5 and SHA-256, qop=auth), the scheme
// Virtuoso's authenticated SPARQL endpoint (/sparql-auth) asks for. Basic (RFC 7617) is
// tried first when the server offers it; this answers a Digest challenge.
import { createHash, randomBytes } from 'node:crypto';

interface Challenge {
  realm: string;
  nonce: string;
  qop?: string;
  opaque?: string;
  algorithm: string;
}

/** Parses `Digest realm="…", nonce="…", …` (RFC 7616 §3.3); undefined for other schemes. */
export function parseDigestChallenge(header: string): Challenge | undefined {
  const m = /^\s*Digest\s+(.*)$/i.exec(header);
  if (!m) return undefined;
  const params: Record<string, string> = {};
  // Group 1 of both patterns always takes part, and one of 2 (quoted value) or 3 (token).
  for (const p of m[1]!.matchAll(/([a-zA-Z]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^,\s]+))/g)) {
    params[p[1]!.toLowerCase()] = p[2] !== undefined ? p[2].replace(/\\(.)/g, '$1') : p[3]!;
  }
  if (!params.realm || !params.nonce) return undefined;
  return { realm: params.realm, nonce: params.nonce, qop: params.qop, opaque: params.opaque, algorithm: params.algorithm ?? 'MD5' };
}

const hashOf = (algorithm: string) => (s: string): string =>
  createHash(/^SHA-256/i.test(algorithm) ? 'sha256' : 'md5').update(s).digest('hex');

/** The Authorization header answering `challenge` for one request (RFC 7616 §3.4). */
export function digestAuthorization(challenge: Challenge, user: string, password: string, method: string, uri: string, nc = 1): string {
  const h = hashOf(challenge.algorithm);
  const ha1 = h(`${user}:${challenge.realm}:${password}`);
  const ha2 = h(`${method}:${uri}`);
  const useQop = challenge.qop?.split(',').map((q) => q.trim()).includes('auth');
  const cnonce = randomBytes(8).toString('hex');
  const ncHex = nc.toString(16).padStart(8, '0');
  const response = useQop ? h(`${ha1}:${challenge.nonce}:${ncHex}:${cnonce}:auth:${ha2}`) : h(`${ha1}:${challenge.nonce}:${ha2}`);
  const parts = [
    `username="${user}"`, `realm="${challenge.realm}"`, `nonce="${challenge.nonce}"`, `uri="${uri}"`,
    `algorithm=${challenge.algorithm}`, `response="${response}"`,
  ];
  if (useQop) parts.push('qop=auth', `nc=${ncHex}`, `cnonce="${cnonce}"`);
  if (challenge.opaque) parts.push(`opaque="${challenge.opaque}"`);
  return 'Digest ' + parts.join(', ');
}
