// Answers for requests Node's HTTP parser refuses before the app sees them (the server's
// 'clientError' event). Node's own answer to a request head over its size limit is written
// and the socket destroyed at once, while the client is still sending: the client then
// reads a reset instead of the answer. Here the answer is a short report, the socket is
// half-closed, and what the client still sends is read and dropped for a moment, so the
// answer arrives: 414 URI Too Long (RFC 9110 §15.5.15) for a request line over the limit,
// 431 (RFC 6585 §5) for a header block over it, 408 for a request too slow (listen.ts).
import type { Socket } from 'node:net';
import { HttpError } from '../errors.ts';
import { ERR } from '../rdf/vocab.ts';
import { reportOf, reportText } from './errorReport.ts';
import { EVERY_ANSWER } from './securityHeaders.ts';

/** How long a refused client may go on sending before its socket is closed. */
const DRAIN_MS = 2000;

/** Reason phrase and report code by status. */
const ANSWERS = {
  400: { reason: 'Bad Request', code: ERR.BadRequest },
  408: { reason: 'Request Timeout', code: ERR.RequestTimeout },
  414: { reason: 'URI Too Long', code: ERR.URITooLong },
  431: { reason: 'Request Header Fields Too Large', code: ERR.HeaderFieldsTooLarge },
} as const;

type Status = keyof typeof ANSWERS;

interface ParseError extends Error {
  code?: string;
  rawPacket?: Buffer;
}

/**
 * Whether the bytes the parser held when the head passed `limit` are a request line with
 * no line end within the limit (RFC 9112 §3). The parser reports only the chunk it was
 * given: a request line that arrived in many small chunks cannot be told from a long
 * header field, and is answered 431, which names the limit all the same.
 */
function requestLineTooLong(raw: Buffer | undefined, limit: number): boolean {
  if (!raw) return false;
  const head = raw.toString('latin1', 0, Math.min(raw.length, limit + 2));
  return /^[!#$%&'*+.^_`|~0-9A-Za-z-]+ /.test(head) && !head.includes('\r\n');
}

export function statusOf(err: ParseError, limit: number): Status {
  if (err.code === 'HPE_HEADER_OVERFLOW') return requestLineTooLong(err.rawPacket, limit) ? 414 : 431;
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT') return 408;
  return 400;
}

function messageOf(status: Status, limit: number): string {
  if (status === 414) return `the request line is longer than the limit of ${limit} bytes`;
  if (status === 431) return `the request line and header fields are longer than the limit of ${limit} bytes`;
  if (status === 408) return 'the request was not received within the time limit';
  return 'the request is not valid HTTP/1.1';
}

/** The server's 'clientError' listener; `limit` is the head's size limit (server.maxHeaderSize). */
export function clientErrorHandler(actor: string, limit: number): (err: ParseError, socket: Socket) => void {
  const answered = new WeakSet<Socket>();
  return (err, socket) => {
    // The parser reports again for each chunk that follows a refused head.
    if (answered.has(socket)) return;
    answered.add(socket);
    const inFlight = (socket as Socket & { _httpMessage?: { headersSent: boolean } })._httpMessage;
    if (err.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
      socket.destroy();
      return;
    }
    const status = statusOf(err, limit);
    const details = status === 414 || status === 431 ? 'Send long parameters in a POST body (application/x-www-form-urlencoded) instead.' : undefined;
    const body = Buffer.from(reportText(reportOf(new HttpError(status, ANSWERS[status].code, messageOf(status, limit), { details }), actor, false)));
    const headers = { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': String(body.length), Connection: 'close', ...EVERY_ANSWER };
    const head = `HTTP/1.1 ${status} ${ANSWERS[status].reason}\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}\r\n`).join('')}\r\n`;
    socket.end(Buffer.concat([Buffer.from(head, 'latin1'), body]));
    setTimeout(() => socket.destroy(), DRAIN_MS).unref();
  };
}
