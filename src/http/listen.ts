// The HTTP server of the service and its time limits. A client that trickles its headers or
// body (one byte a second) holds a socket and a parser; the limits below end such requests
// with 408 Request Timeout (RFC 9110 §15.5.9) so that they cannot pile up.
import { createServer, maxHeaderSize, type RequestListener, type Server } from 'node:http';
import type { Config } from '../config.ts';
import { clientErrorHandler } from './clientErrors.ts';

/** Idle keep-alive sockets outlive the clients' own idle timeout (undici's is 4 s), so a
 * polling client never reuses a socket the server is just closing (ECONNRESET). */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

export type TimeoutConfig = Pick<Config, 'requestTimeoutMs' | 'headersTimeoutMs'>;

/** Node's timeouts: the headers limit cannot exceed the whole-request limit (when set). */
export function serverTimeouts(config: TimeoutConfig): { requestTimeout: number; headersTimeout: number; connectionsCheckingInterval: number } {
  const requestTimeout = config.requestTimeoutMs;
  const headersTimeout = requestTimeout > 0 ? Math.min(config.headersTimeoutMs, requestTimeout) : config.headersTimeoutMs;
  // Node enforces both limits by sweeping its connections at this interval (30 s by
  // default), so a short limit needs a matching sweep to be kept to within a few seconds.
  const shortest = Math.min(headersTimeout || Infinity, requestTimeout || Infinity);
  const connectionsCheckingInterval = Math.max(250, Math.min(30_000, Math.floor(shortest / 4)));
  return { requestTimeout, headersTimeout, connectionsCheckingInterval };
}

/**
 * An HTTP server for a request handler, with the configured time limits; requests the
 * parser refuses (too slow, too long a head) are answered with a report (clientErrors.ts).
 */
export function createHttpServer(config: TimeoutConfig & Partial<Pick<Config, 'baseUrl'>>, handler: RequestListener): Server {
  const server = createServer({ ...serverTimeouts(config), keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS }, handler);
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  // The head's limit is Node's (--max-http-header-size, 16 KiB by default).
  server.on('clientError', clientErrorHandler(config.baseUrl ? `${config.baseUrl}/` : '', maxHeaderSize));
  return server;
}
