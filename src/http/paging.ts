// Lists and paging (DESIGN: lists never truncate silently). Collections take
// `page` (0-based, as AMBIT and other OpenTox services count), `pagesize` and `max` (a cap on
// the items returned over all pages). A page that is not the last says so with a
// `Link: <…>; rel="next"` header, and `X-Total-Count` when the total is cheap to know.
import { BadRequest } from '../errors.ts';
import { ERR } from '../rdf/vocab.ts';
import { withoutTokens } from './outbound/credentials.ts';

export interface PagingLimits {
  /** Default page size (config.pageSize). */
  pageSize: number;
  /** Largest page size; larger requests are capped to it (config.maxPageSize). */
  maxPageSize: number;
}

export interface Paging {
  page: number;
  pageSize: number;
  /** Cap on the items over all pages, when the client sent `max`. */
  max?: number;
  /** What the query uses: OFFSET and LIMIT (LIMIT may be 0 past `max`). */
  offset: number;
  limit: number;
}

const MAX_PAGE = 1_000_000_000;

/**
 * The largest OFFSET a query is given. No store holds more items, and Oxigraph's WebAssembly
 * build reads OFFSET as a 32-bit integer (a larger one fails to parse): a page that starts
 * past it is past the data, and is answered empty from this offset with LIMIT 0.
 */
export const MAX_OFFSET = 2 ** 31 - 1;

type Query = Record<string, string | string[] | undefined>;

function intParam(query: Query, name: string, min: number, max: number): number | undefined {
  const raw = query[name];
  if (raw === undefined) return undefined;
  const value = Array.isArray(raw) ? raw.at(-1) : raw;
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value.trim()) || Number(value) < min || Number(value) > max) {
    throw new BadRequest(`parameter ${name}=${JSON.stringify(value.slice(0, 50))} is out of range: expected an integer from ${min} to ${max}`, {
      code: ERR.InvalidParameter,
    });
  }
  return Number(value);
}

/** Reads page, pagesize and max from a query (ctx.query); 400 InvalidParameter names a bad one. */
export function parsePaging(query: Query, limits: PagingLimits): Paging {
  const page = intParam(query, 'page', 0, MAX_PAGE) ?? 0;
  const max = intParam(query, 'max', 0, Number.MAX_SAFE_INTEGER);
  const requested = intParam(query, 'pagesize', 1, Number.MAX_SAFE_INTEGER) ?? (max === undefined ? limits.pageSize : Math.max(max, 1));
  const pageSize = Math.min(requested, limits.maxPageSize);
  const offset = page * pageSize;
  if (offset > MAX_OFFSET) return { page, pageSize, max, offset: MAX_OFFSET, limit: 0 };
  const limit = max === undefined ? pageSize : Math.max(0, Math.min(pageSize, max - offset));
  return { page, pageSize, max, offset, limit };
}

/**
 * Runs `fetch(limit, offset)` for one page, asking for one item more than the page holds so
 * that "is there more?" needs no count.
 */
export async function fetchPage<T>(paging: Paging, fetch: (limit: number, offset: number) => T[] | Promise<T[]>): Promise<{ items: T[]; hasMore: boolean }> {
  if (paging.limit === 0) return { items: [], hasMore: false };
  const rows = await fetch(paging.limit + 1, paging.offset);
  const reachedMax = paging.max !== undefined && paging.offset + paging.limit >= paging.max;
  return { items: rows.slice(0, paging.limit), hasMore: rows.length > paging.limit && !reachedMax };
}

/** Link (first, prev, next) and X-Total-Count headers for a page of the list at `url` (its tokens left out). */
export function pagingHeaders(url: string, paging: Paging, hasMore: boolean, total?: number): Record<string, string> {
  const at = (page: number) => {
    const u = withoutTokens(url);
    u.searchParams.set('page', String(page));
    u.searchParams.set('pagesize', String(paging.pageSize));
    return `<${u.href}>`;
  };
  const links = [`${at(0)}; rel="first"`];
  if (paging.page > 0) links.push(`${at(paging.page - 1)}; rel="prev"`);
  if (hasMore) links.push(`${at(paging.page + 1)}; rel="next"`);
  const headers: Record<string, string> = { Link: links.join(', '), 'X-Page-Size': String(paging.pageSize) };
  if (total !== undefined) headers['X-Total-Count'] = String(paging.max === undefined ? total : Math.min(total, paging.max));
  return headers;
}
