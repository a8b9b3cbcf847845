// page / pagesize / max of the task list (DESIGN: lists page and never truncate silently).
// Pages count from 0, as in other OpenTox services; a Link rel="next" header says more exist.
import type Koa from 'koa';
import type { Config } from '../config.ts';
import { BadRequest } from '../http/errors.ts';
import { ERR } from '../rdf/vocab.ts';

export interface Page {
  page: number;
  size: number;
  offset: number;
}

function intParam(query: Koa.Context['query'], name: string, min: number, max: number): number | undefined {
  const raw = query[name];
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (typeof raw !== 'string' || !Number.isInteger(n) || n < min || n > max) {
    throw new BadRequest(`${name} must be an integer from ${min} to ${max}, got "${String(raw).slice(0, 50)}"`, { code: ERR.InvalidParameter });
  }
  return n;
}

export function pageOf(query: Koa.Context['query'], config: Config): Page {
  const page = intParam(query, 'page', 0, Number.MAX_SAFE_INTEGER) ?? 0;
  const size = intParam(query, 'pagesize', 1, config.maxPageSize) ?? intParam(query, 'max', 1, config.maxPageSize) ?? config.pageSize;
  return { page, size, offset: page * size };
}

/** `Link: <...page=N+1>; rel="next"` when the list goes on. */
export function pageHeaders(ctx: Koa.Context, base: string, page: Page, more: boolean): Record<string, string> {
  if (!more) return {};
  const next = new URLSearchParams(ctx.querystring);
  next.set('page', String(page.page + 1));
  next.set('pagesize', String(page.size));
  next.delete('max');
  return { Link: `<${base}${ctx.path}?${next.toString()}>; rel="next"` };
}
