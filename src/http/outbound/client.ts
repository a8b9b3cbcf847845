// The one door to other services (STYLE §14): every request the service makes to a URI a
// client named goes through outboundRequest, in API processes and workers alike. It applies
// the policy (policy.ts) to the first URI and to every redirect, connects to the address it
// checked, sends the caller's token only where it belongs, and bounds connect time, total
// time, body size (BODY_LIMIT) and the number of requests (budget.ts).
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import zlib from 'node:zlib';
import { ERR } from '../../rdf/vocab.ts';
import { spendFetch } from './budget.ts';
import { withoutCredentials } from './credentials.ts';
import { isTokenParam } from '../tokenParams.ts';
import { masked, mayCarryToken, refused, resolveTarget, unreachable, type OutboundConfig, type Target } from './policy.ts';

export interface OutboundOptions {
  /** Accept header (default any). */
  accept?: string;
  /** The caller's token (SPEC §5): a `subjectid` header, and a form field of form bodies, where mayCarryToken allows. */
  subjectid?: string;
  method?: string;
  body?: string | Buffer | URLSearchParams;
  /** Content-Type of `body` (a URLSearchParams body is a form). */
  contentType?: string;
  /** Time limit of the whole exchange, redirects included, in ms (at most REMOTE_TIMEOUT_MS). */
  timeoutMs?: number;
  /** What the URI is, for refusals ("dataset_uri"). */
  what?: string;
}

export interface OutboundResponse {
  status: number;
  /** The URL answered from, after redirects. */
  url: string;
  contentType: string;
  headers: Headers;
  body: Buffer;
}

/** Redirects followed at most (the Fetch standard's 20 is far more than any service needs). */
export const MAX_REDIRECTS = 5;

const FORM = 'application/x-www-form-urlencoded';
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

interface Exchange {
  method: string;
  headers: Record<string, string>;
  body?: string | Buffer;
}

/** A form without the caller's credentials, for hosts that must not receive them. */
function stripForm(form: URLSearchParams): URLSearchParams {
  const out = new URLSearchParams();
  for (const [k, v] of form) if (!isTokenParam(k)) out.append(k, v);
  return out;
}

function requestFor(config: OutboundConfig, target: Target, options: OutboundOptions, method: string, body: OutboundOptions['body'], credentials: boolean): Exchange {
  const trusted = credentials && mayCarryToken(config, target.url);
  const token = trusted ? options.subjectid : undefined;
  const headers: Record<string, string> = { Accept: options.accept ?? '*/*', 'Accept-Encoding': 'gzip, deflate, br' };
  if (token) headers.subjectid = token;
  if (body instanceof URLSearchParams) {
    const form = trusted ? new URLSearchParams(body) : stripForm(body);
    if (token && !form.has('subjectid')) form.set('subjectid', token);
    headers['Content-Type'] = FORM;
    return { method, headers, body: form.toString() };
  }
  if (body !== undefined && options.contentType) headers['Content-Type'] = options.contentType;
  return { method, headers, body };
}

/** Follows `uri` through at most MAX_REDIRECTS redirects; every answer, errors too, is returned. */
export async function outboundRequest(config: OutboundConfig, uri: string, options: OutboundOptions = {}): Promise<OutboundResponse> {
  // REMOTE_TIMEOUT_MS=0 sets no limit of its own; a caller's shorter one still applies.
  const cap = config.remoteTimeoutMs || Infinity;
  const timeoutMs = Math.min(options.timeoutMs ?? cap, cap);
  const deadline = Date.now() + timeoutMs;
  let method = options.method ?? (options.body === undefined ? 'GET' : 'POST');
  let body = options.body;
  let at = withoutCredentials(uri);
  let what = options.what ?? 'the URI';
  // A redirect to another origin never carries credentials (nor do any hops after it).
  let credentials = true;
  for (let hop = 0; ; hop++) {
    spendFetch();
    const target = await resolveTarget(config, at, what);
    const exchange = requestFor(config, target, options, method, body, credentials);
    const res = await send(config, target, exchange, deadline, timeoutMs);
    const location = res.headers.get('location');
    if (!REDIRECTS.has(res.status) || !location) return res;
    const next = URL.canParse(location, target.url) ? withoutCredentials(new URL(location, target.url).href) : undefined;
    if (!next) throw unreachable(at, `answered ${res.status} with a Location that is no URI`);
    if (hop >= MAX_REDIRECTS) throw refused(`${masked(uri)} redirects more than ${MAX_REDIRECTS} times; the last redirect, to`, next, `at most ${MAX_REDIRECTS} redirects are followed`);
    if (new URL(next).origin !== target.url.origin) credentials = false;
    // RFC 9110 §15.4: 303 (and, as browsers do, 301/302 after a POST) continue with a GET.
    if (res.status === 303 || ((res.status === 301 || res.status === 302) && method === 'POST')) {
      method = 'GET';
      body = undefined;
    }
    what = `a redirect from ${masked(at)} to`;
    at = next;
  }
}

const CONNECTION_FAILURES: Record<string, string> = {
  ECONNREFUSED: 'connection refused', ECONNRESET: 'connection reset', EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable', EPIPE: 'connection closed', ECONNABORTED: 'connection aborted',
};

class Timeout extends Error {}
class TooLarge extends Error {}

/** One request to the checked address; the body read up to BODY_LIMIT, decoded if compressed. */
function send(config: OutboundConfig, target: Target, exchange: Exchange, deadline: number, timeoutMs: number): Promise<OutboundResponse> {
  const uri = target.url.href;
  const host = target.url.hostname.replace(/^\[|\]$/g, '');
  // The address resolved and checked in resolveTarget, never a second lookup (DNS rebinding).
  const lookup = ((_h: string, opts: { all?: boolean }, cb: (...args: unknown[]) => void) => {
    if (opts.all) cb(null, [{ address: target.address, family: target.family }]);
    else cb(null, target.address, target.family);
  }) as unknown as LookupFunction;
  return new Promise((resolve, reject) => {
    const limit = config.bodyLimit;
    const req = (target.url.protocol === 'https:' ? https : http).request({
      host, port: target.url.port || undefined, path: target.url.pathname + target.url.search,
      method: exchange.method, headers: exchange.headers, agent: false, lookup,
      ...(isIP(host) ? {} : { servername: host }),
    });
    let settled = false;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(total);
      outcome();
    };
    // Every failure ends here once: the request and its response are destroyed, the promise rejected.
    const fail = (e: unknown) => finish(() => {
      req.destroy();
      if (e instanceof Timeout) reject(unreachable(uri, e.message, 504, ERR.GatewayTimeout.value));
      else if (e instanceof TooLarge) reject(unreachable(uri, e.message));
      else {
        const code = (e as { code?: string }).code ?? '';
        reject(unreachable(uri, CONNECTION_FAILURES[code] ? `${CONNECTION_FAILURES[code]} (${code})` : (e as Error).message));
      }
    });
    const total = Number.isFinite(deadline) ? setTimeout(() => fail(new Timeout(`no answer within ${timeoutMs} ms`)), Math.max(0, deadline - Date.now())) : undefined;
    req.on('socket', (socket) => {
      if (!config.remoteConnectTimeoutMs) return;
      const connect = setTimeout(() => fail(new Timeout(`no connection within ${config.remoteConnectTimeoutMs} ms`)), config.remoteConnectTimeoutMs);
      socket.once('connect', () => clearTimeout(connect));
      socket.once('close', () => clearTimeout(connect));
    });
    req.on('error', fail);
    req.on('response', (res) => {
      res.on('error', fail);
      res.on('close', () => {
        if (!res.complete) fail(new Error('the connection closed before the answer was complete'));
      });
      const status = res.statusCode ?? 0;
      const headers = new Headers();
      for (const [k, v] of Object.entries(res.headers)) for (const one of [v].flat()) if (one !== undefined) headers.append(k, one);
      const answer = (body: Buffer) => finish(() => resolve({ status, url: uri, contentType: headers.get('content-type') ?? '', headers, body }));
      // A redirect's body is never read: it is not used, and it could be endless.
      if (REDIRECTS.has(status) && headers.has('location')) {
        answer(Buffer.alloc(0));
        req.destroy();
        return;
      }
      const declared = Number(headers.get('content-length'));
      const tooLarge = () => new TooLarge(`answered more than ${limit} bytes, the limit of BODY_LIMIT`);
      if (limit > 0 && declared > limit) {
        fail(tooLarge());
        return;
      }
      const encoding = (headers.get('content-encoding') ?? 'identity').toLowerCase();
      const decoders: Record<string, () => NodeJS.ReadWriteStream> = { gzip: zlib.createGunzip, 'x-gzip': zlib.createGunzip, deflate: zlib.createInflate, br: zlib.createBrotliDecompress };
      if (encoding !== 'identity' && !decoders[encoding]) {
        fail(new Error(`answered in Content-Encoding ${encoding}, which is not decoded`));
        return;
      }
      const stream = encoding === 'identity' ? res : res.pipe(decoders[encoding]!());
      const chunks: Buffer[] = [];
      let size = 0;
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length;
        // The decoded size counts: a small compressed body must not expand past the limit.
        if (limit > 0 && size > limit) fail(tooLarge());
        else chunks.push(chunk);
      });
      stream.on('error', fail);
      stream.on('end', () => answer(Buffer.concat(chunks)));
    });
    req.end(exchange.body);
  });
}
