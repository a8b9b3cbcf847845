// A client of the SPARQL 1.1 Protocol (W3C Recommendation): queries and updates sent as
// URL-encoded POST bodies (§2.1.2, §2.2.1), answers read as SPARQL JSON results or
// N-Triples. Written for the protocol; what a particular store does differently is read
// in results.ts and documented in docs/ARCHITECTURE.md. Every failure of the store
// becomes a 503 report naming the store, never a hang: each request has a time limit.
import type * as RDF from '@rdfjs/types';
import { Parser } from 'n3';
import { InternalError, ServiceUnavailable } from '../../errors.ts';
import { booleanOf, rowsOf, type JsonResults } from './results.ts';
import type { Row } from '../api.ts';
import { digestAuthorization, parseDigestChallenge } from './digest.ts';

export interface SparqlEndpoint {
  /** The query endpoint. */
  queryUrl: string;
  /** The update endpoint (defaults to queryUrl). */
  updateUrl?: string;
  /**
   * The store's SPARQL 1.1 Graph Store HTTP Protocol endpoint, which names a graph by its
   * `graph` parameter (GSP §4.2); unset, every write is an update.
   */
  graphStoreUrl?: string;
  user?: string;
  password?: string;
  /** Time limit of one request to the store (default 60 s). */
  timeoutMs?: number;
}

const JSON_RESULTS = 'application/sparql-results+json';
const N_TRIPLES = 'application/n-triples';
const FORM = 'application/x-www-form-urlencoded';

/** What one request (a POST) to the store sends. */
interface Outgoing {
  type: string;
  body: string;
  accept: string;
}

/** A query or update sent as a URL-encoded form (§2.1.2, §2.2.1), with the dataset parameters (§2.1.4) beside it. */
function form(fields: Record<string, string>, accept: string, dataset?: URLSearchParams): Outgoing {
  const params = new URLSearchParams(fields);
  for (const [k, v] of dataset ?? []) params.append(k, v);
  return { type: FORM, body: params.toString(), accept };
}

/** Seconds a client is told to wait when the store is unreachable. */
const RETRY_AFTER = 5;

/** Thrown when the store cut an answer at its row limit: never used as if it were whole. */
export class TruncatedAnswer extends InternalError {}

/**
 * Requests sent to the store at once. Virtuoso serves MaxClientConnections (20 by default)
 * and resets connections beyond them, so a burst of writes would fail instead of waiting.
 */
const MAX_CONCURRENT = 16;

export class SparqlProtocol {
  private active = 0;
  private readonly waiting: Array<() => void> = [];
  private readonly updateUrl: string;
  private readonly timeoutMs: number;
  /** The scheme the store asked for in its first 401 (RFC 9110 §11.6.1), learnt once. */
  private scheme: { kind: 'basic' } | { kind: 'digest'; header: string; nc: number } | undefined;

  constructor(private readonly endpoint: SparqlEndpoint) {
    this.updateUrl = endpoint.updateUrl ?? endpoint.queryUrl;
    this.timeoutMs = endpoint.timeoutMs ?? 60_000;
  }

  get url(): string {
    return this.endpoint.queryUrl;
  }

  async select(query: string, signal?: AbortSignal): Promise<Row[]> {
    const res = await this.send(this.endpoint.queryUrl, form({ query }, JSON_RESULTS), signal);
    const rows = rowsOf((await res.json()) as JsonResults);
    this.checkWhole(res, rows.length);
    return rows;
  }

  async ask(query: string, signal?: AbortSignal): Promise<boolean> {
    const res = await this.send(this.endpoint.queryUrl, form({ query }, JSON_RESULTS), signal);
    return booleanOf((await res.json()) as JsonResults);
  }

  async construct(query: string, signal?: AbortSignal, dataset?: URLSearchParams): Promise<RDF.Quad[]> {
    const res = await this.send(this.endpoint.queryUrl, form({ query }, N_TRIPLES, dataset), signal);
    const text = await res.text();
    const quads = new Parser({ format: 'N-Triples' }).parse(text);
    this.checkWhole(res, quads.length);
    return quads;
  }

  /** A query answered in the media type `accept`, for the public endpoint. */
  async raw(query: string, accept: string, signal?: AbortSignal, dataset?: URLSearchParams): Promise<{ type: string; body: string }> {
    const res = await this.send(this.endpoint.queryUrl, form({ query }, accept, dataset), signal);
    return { type: res.headers.get('content-type') ?? accept, body: await res.text() };
  }

  async update(update: string, signal?: AbortSignal): Promise<void> {
    const res = await this.send(this.updateUrl, form({ update }, '*/*'), signal);
    await res.arrayBuffer();
  }

  /**
   * Adds N-Triples to `graph` through the Graph Store endpoint (POST, GSP §5.5), in one
   * request. Virtuoso parses such a body with its Turtle loader in about half the time per
   * triple that INSERT DATA takes, and a body it refuses adds nothing (measured here;
   * docs/engines.md, Writes).
   */
  async addToGraph(graph: string, ntriples: string, signal?: AbortSignal): Promise<void> {
    const base = this.endpoint.graphStoreUrl;
    if (base === undefined) throw new InternalError('addToGraph needs the store\'s Graph Store endpoint (SPARQL_GRAPH_STORE)');
    const url = `${base}${base.includes('?') ? '&' : '?'}graph=${encodeURIComponent(graph)}`;
    const res = await this.send(url, { type: N_TRIPLES, body: ntriples, accept: '*/*' }, signal);
    await res.arrayBuffer();
  }

  /** A store that cut its answer says so in X-SPARQL-MaxRows (Virtuoso's ResultSetMaxRows). */
  private checkWhole(res: Response, count: number): void {
    const max = Number(res.headers.get('x-sparql-maxrows'));
    if (max > 0 && count >= max) {
      throw new TruncatedAnswer(`the SPARQL store at ${this.endpoint.queryUrl} cut an answer at its limit of ${max} rows`, {
        details: 'Raise the store\'s row limit (Virtuoso: ResultSetMaxRows in [SPARQL]) above the service\'s page size.',
      });
    }
  }

  /** One request within MAX_CONCURRENT: the answer is read whole before its place is given back. */
  private async send(url: string, outgoing: Outgoing, signal?: AbortSignal): Promise<Response> {
    while (this.active >= MAX_CONCURRENT) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
    try {
      const res = await this.sendOnce(url, outgoing, signal);
      return new Response(await res.arrayBuffer(), { status: res.status, statusText: res.statusText, headers: res.headers });
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }

  private async sendOnce(url: string, { type, body, accept }: Outgoing, signal?: AbortSignal): Promise<Response> {
    const attempt = (authorization?: string) => {
      const headers: Record<string, string> = { 'content-type': type, accept };
      if (authorization) headers.authorization = authorization;
      const timeout = AbortSignal.timeout(this.timeoutMs);
      return fetch(url, { method: 'POST', headers, body, signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
    };
    let res: Response;
    try {
      res = await attempt(this.authorization(url));
      if (res.status === 401 && this.endpoint.user !== undefined) {
        await res.arrayBuffer();
        this.learnChallenge(res.headers.get('www-authenticate') ?? '');
        res = await attempt(this.authorization(url));
      }
    } catch (e) {
      if (signal?.aborted) throw e;
      const timedOut = (e as Error).name === 'TimeoutError';
      throw new ServiceUnavailable(`the SPARQL store at ${url} ${timedOut ? `did not answer within ${this.timeoutMs} ms` : 'is unreachable'}`, {
        cause: e,
        details: String((e as { cause?: unknown }).cause ?? (e as Error).message),
        retryAfterSeconds: RETRY_AFTER,
      });
    }
    if (res.ok) return res;
    const text = (await res.text()).slice(0, 2000);
    if (res.status >= 500 || res.status === 401 || res.status === 403) {
      throw new ServiceUnavailable(`the SPARQL store at ${url} answered ${res.status}`, { details: text, retryAfterSeconds: RETRY_AFTER });
    }
    throw new InternalError(`the SPARQL store at ${url} refused a request (${res.status})`, { details: text });
  }

  // Credentials go only where the store asked for them, in the scheme it named: Virtuoso
  // answers a Basic attempt with a bare 401 that carries no challenge.
  private authorization(url: string): string | undefined {
    const { user, password } = this.endpoint;
    if (user === undefined || !this.scheme) return undefined;
    if (this.scheme.kind === 'basic') return 'Basic ' + Buffer.from(`${user}:${password ?? ''}`).toString('base64');
    const challenge = parseDigestChallenge(this.scheme.header)!;
    this.scheme.nc += 1;
    // The digest's uri is the request target, query included (RFC 7616 §3.4).
    const { pathname, search } = new URL(url);
    return digestAuthorization(challenge, user, password ?? '', 'POST', pathname + search, this.scheme.nc);
  }

  private learnChallenge(header: string): void {
    if (parseDigestChallenge(header)) this.scheme = { kind: 'digest', header, nc: 0 };
    else if (/^\s*Basic\b/i.test(header)) this.scheme = { kind: 'basic' };
  }
}
