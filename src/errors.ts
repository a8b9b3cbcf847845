// One error hierarchy (STYLE §1): domain code throws these; src/http/errorMiddleware.ts
// turns them into ot:ErrorReport responses (SPEC §7.2).
import { DataFactory, type NamedNode } from 'n3';
import { ERR } from './rdf/vocab.ts';

/** A received or nested error report (SPEC §7.2 "cause"). */
export interface ErrorReportData {
  status: number;
  code: string; // IRI of the error code
  actor?: string;
  message: string;
  details?: string;
  causes: ErrorReportData[];
}

export interface HttpErrorOptions {
  code?: NamedNode;
  details?: string;
  cause?: unknown;
  /** Reports received from remote services (SPEC §7.2 rules 1-3). */
  causes?: ErrorReportData[];
  headers?: Record<string, string>;
}

export class HttpError extends Error {
  readonly status: number;
  readonly code: NamedNode;
  readonly details?: string;
  readonly causes: ErrorReportData[];
  readonly headers: Record<string, string>;

  constructor(status: number, code: NamedNode, message: string, options: HttpErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.status = status;
    this.code = options.code ?? code;
    this.details = options.details;
    this.causes = options.causes ?? [];
    this.headers = options.headers ?? {};
  }
}

export class BadRequest extends HttpError {
  constructor(message: string, options?: HttpErrorOptions) { super(400, ERR.BadRequest, message, options); }
}
export class Unauthorized extends HttpError {
  constructor(message: string, options?: HttpErrorOptions) {
    super(401, ERR.Unauthorized, message, { ...options, headers: { 'WWW-Authenticate': 'Bearer realm="opentox"', ...options?.headers } });
  }
}
export class Forbidden extends HttpError {
  constructor(message: string, options?: HttpErrorOptions) { super(403, ERR.Forbidden, message, options); }
}
export class NotFound extends HttpError {
  constructor(message: string, options?: HttpErrorOptions) { super(404, ERR.NotFound, message, options); }
}
export class MethodNotAllowed extends HttpError {
  constructor(method: string, allowed: string[]) {
    super(405, ERR.MethodNotAllowed, `${method} is not allowed here; allowed: ${allowed.join(', ')}`, {
      headers: { Allow: allowed.join(', ') },
    });
  }
}
/** RFC 9110 §15.5.7: the resource has no representation of the media types the request accepts. */
export class NotAcceptable extends HttpError {
  constructor(message: string, options?: HttpErrorOptions) { super(406, ERR.NotAcceptable, message, options); }
}
export class Conflict extends HttpError {
  constructor(message: string, options?: HttpErrorOptions) { super(409, ERR.Conflict, message, options); }
}
export class PayloadTooLarge extends HttpError {
  constructor(limit: number) {
    super(413, ERR.PayloadTooLarge, `request body is larger than the limit of ${limit} bytes`, {
      details: 'Set BODY_LIMIT to accept larger bodies, or upload a large dataset in parts with PUT.',
    });
  }
}
/** SPEC §7.1 names 400 for an incorrect MIME type, so this is a 400 with its own code. */
export class UnsupportedMediaType extends HttpError {
  constructor(type: string, supported: string[], options?: HttpErrorOptions) {
    super(400, ERR.UnsupportedMediaType, `unsupported Content-Type "${type || '(none)'}"`, {
      details: `Supported here: ${supported.join(', ')}`,
      ...options,
    });
  }
}
/** RFC 6585 §4; `headers` carry Retry-After and the RateLimit fields (http/rateLimitFields.ts). */
export class TooManyRequests extends HttpError {
  constructor(message: string, headers: Record<string, string>) {
    super(429, ERR.TooManyRequests, message, { headers });
  }
}
export class InternalError extends HttpError {
  constructor(message: string, options?: HttpErrorOptions) { super(500, ERR.InternalServerError, message, options); }
}
/** SPEC §7.2 rules 1-3: a remote service answered an error; its report(s) become the causes. */
export class BadGateway extends HttpError {
  constructor(message: string, causes: ErrorReportData[], options?: HttpErrorOptions) {
    super(502, ERR.BadGateway, message, { ...options, causes });
  }
}
export class ServiceUnavailable extends HttpError {
  constructor(message: string, options?: HttpErrorOptions & { retryAfterSeconds?: number }) {
    const retry = options?.retryAfterSeconds;
    super(503, ERR.ServiceUnavailable, message, {
      ...options,
      headers: { ...(retry === undefined ? {} : { 'Retry-After': String(retry) }), ...options?.headers },
    });
  }
}
/** RFC 4918 §11.5: the write cannot be stored for lack of room; nothing of it was kept. */
export class InsufficientStorage extends HttpError {
  constructor(message: string, options?: HttpErrorOptions) {
    super(507, ERR.InsufficientStorage, message, { details: 'Free space where DATA_DIR lies; writes work again as soon as there is room.', ...options });
  }
}
export class GatewayTimeout extends HttpError {
  constructor(message: string, options?: HttpErrorOptions) { super(504, ERR.GatewayTimeout, message, options); }
}

/**
 * An error as plain data, to cross a thread boundary: structured cloning keeps only an
 * Error's message, so an HttpError would lose its status and code.
 */
export interface PlainError {
  message: string;
  status?: number;
  code?: string;
  details?: string;
  stack?: string;
}

export function plainError(e: unknown): PlainError {
  const err = e as { message?: string; status?: number; code?: { value?: string }; details?: string; stack?: string };
  return { message: err.message ?? String(e), status: err.status, code: err.code?.value, details: err.details, stack: err.stack };
}

/** The error a PlainError was made from, rebuilt on this side of the thread boundary. */
export function errorFromPlain(e: PlainError): Error {
  if (e.status && e.code) return new HttpError(e.status, DataFactory.namedNode(e.code), e.message, { details: e.details });
  return Object.assign(new Error(e.message), { stack: e.stack });
}
