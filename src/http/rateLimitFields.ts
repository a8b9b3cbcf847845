// RateLimit-Policy and RateLimit fields (draft-ietf-httpapi-ratelimit-headers-10 §3, §4):
// Structured Field Lists (RFC 9651) of one item each, named by a quoted policy name, with
// q (quota), w (window, s), qu (quota unit) and r (remaining), t (seconds until it resets).
// Sent with Retry-After (RFC 9110 §10.2.3) on the answers that refuse a client.

export interface QuotaPolicy {
  /** The policy's name, as the two fields give it. */
  name: string;
  quota: number;
  /** Seconds the quota is counted over; absent for a quota of things at once. */
  windowSeconds?: number;
  /** The draft's quota units: "request" (its default) or "concurrent-requests". */
  unit?: 'request' | 'concurrent-requests';
}

/** Retry-After, RateLimit-Policy and RateLimit for a refusal under `policy`: nothing remains for `resetSeconds`. */
export function rateLimitHeaders(policy: QuotaPolicy, remaining: number, resetSeconds: number): Record<string, string> {
  const name = JSON.stringify(policy.name);
  let fields = `${name};q=${policy.quota}`;
  if (policy.windowSeconds !== undefined) fields += `;w=${policy.windowSeconds}`;
  if (policy.unit && policy.unit !== 'request') fields += `;qu="${policy.unit}"`;
  const reset = Math.max(1, Math.ceil(resetSeconds));
  return {
    'Retry-After': String(reset),
    'RateLimit-Policy': fields,
    RateLimit: `${name};r=${Math.max(0, remaining)};t=${reset}`,
  };
}
