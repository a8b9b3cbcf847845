// Paging of collections (DESIGN: lists support page, pagesize and max, never truncate
// silently): page counts from 0; pagesize (or its synonym max) is capped by configuration.
import type { Config } from '../config.ts';
import { BadRequest } from '../http/errors.ts';
import { ERR } from '../rdf/vocab.ts';

export interface Page {
  offset: number;
  limit: number;
  page: number;
}

type Query = Record<string, string | string[] | undefined>;

function intParam(query: Query, name: string): number | undefined {
  const raw = query[name];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (value === undefined || value === '') return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) {
    throw new BadRequest(`parameter ${name}=${JSON.stringify(value)} is not a non-negative integer`, { code: ERR.InvalidParameter });
  }
  return n;
}

export function pageOf(query: Query, config: Pick<Config, 'pageSize' | 'maxPageSize'>): Page {
  const page = intParam(query, 'page') ?? 0;
  const size = intParam(query, 'pagesize') ?? intParam(query, 'max') ?? config.pageSize;
  if (size < 1 || size > config.maxPageSize) {
    throw new BadRequest(`pagesize ${size} is outside 1..${config.maxPageSize}`, { code: ERR.InvalidParameter });
  }
  return { page, limit: size, offset: page * size };
}

/**
 * Headers telling the client there is more: a Link to the next page (RFC 8288), so a
 * full page is never mistaken for the whole collection.
 */
export function pageHeaders(url: URL, page: Page, hasMore: boolean): Record<string, string> {
  if (!hasMore) return {};
  const next = new URL(url);
  next.searchParams.set('page', String(page.page + 1));
  next.searchParams.set('pagesize', String(page.limit));
  next.searchParams.delete('max');
  return { Link: `<${next.href}>; rel="next"` };
}
