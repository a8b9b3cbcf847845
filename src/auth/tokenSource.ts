// Where a request carries its token (SPEC §1 rule 7): an Authorization
// Bearer header, a subjectid header, the subjectid query parameter, a subjectid cookie or
// the subjectid form field. Values are URL-decoded: OpenSSO tokens contain # and =, and a
// raw # in a query string would start the fragment, so clients send %23.
import type Koa from 'koa';
import { contentType, readForm, readRaw } from '../http/body.ts';

const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Decodes %XX escapes when present; a value that is not valid escaping stays as sent. */
function decoded(value: string): string {
  if (!/%[0-9A-Fa-f]{2}/.test(value)) return value;
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** The token from headers, query or cookie: sources that cost nothing to read. */
export function tokenOfHeaders(ctx: Koa.Context): string | undefined {
  const bearer = /^Bearer\s+(.+)$/i.exec(ctx.get('Authorization'));
  if (bearer) return decoded(bearer[1]!.trim()); // (.+) always takes part
  const header = ctx.get('subjectid');
  if (header) return decoded(header.trim());
  const query = ctx.query.subjectid;
  const fromQuery = Array.isArray(query) ? query[0] : query;
  if (fromQuery) return fromQuery;
  const cookie = ctx.cookies.get('subjectid');
  if (cookie) return decoded(cookie);
  return undefined;
}

/**
 * The subjectid field of a form body. The raw body is cached by readRaw (ctx.state.rawBody),
 * so the route that reads the form later still gets all of it. Multipart bodies are read
 * only when `multipart` is set (auth on): uploads can be large.
 */
export async function tokenOfForm(ctx: Koa.Context, multipart: boolean): Promise<string | undefined> {
  if (!BODY_METHODS.has(ctx.method)) return undefined;
  const type = contentType(ctx);
  if (type === 'application/x-www-form-urlencoded') {
    return new URLSearchParams((await readRaw(ctx)).toString('utf8')).get('subjectid') || undefined;
  }
  if (type === 'multipart/form-data' && multipart) return (await readForm(ctx)).get('subjectid') || undefined;
  return undefined;
}

/** Printable ASCII without spaces, as OpenSSO tokens are; anything else is malformed. */
export const TOKEN_SHAPE = /^[\x21-\x7e]{8,2048}$/;
