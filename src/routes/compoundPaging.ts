// page / pagesize / max of GET /compound (DESIGN: lists page and never truncate
// silently): a Link rel="next" header and the total count tell a client there is more.
import type Koa from 'koa';
import type { Config } from '../config.ts';
import { BadRequest } from '../http/errors.ts';
import { ERR } from '../rdf/vocab.ts';

export interface Page {
  offset: number;
  size: number;
  headers: Record<string, string>;
}

function intParam(ctx: Koa.Context, name: string, min: number, max: number): number | undefined {
  const raw = ctx.query[name];
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  if (typeof raw !== 'string' || !Number.isInteger(n) || n < min || n > max) {
    throw new BadRequest(`parameter ${name}=${String(raw)} is out of range: expected an integer from ${min} to ${max}`, { code: ERR.InvalidParameter });
  }
  return n;
}

/** The page a request asks for (page counts from 0; `max` is a synonym of pagesize). */
export function pageOf(ctx: Koa.Context, config: Config, total: number): Page {
  const size = intParam(ctx, 'pagesize', 1, config.maxPageSize) ?? intParam(ctx, 'max', 1, config.maxPageSize) ?? config.pageSize;
  const page = intParam(ctx, 'page', 0, Number.MAX_SAFE_INTEGER) ?? 0;
  const offset = page * size;
  const headers: Record<string, string> = { 'X-Total-Count': String(total) };
  if (offset + size < total) {
    const next = new URL(ctx.href);
    next.searchParams.set('page', String(page + 1));
    next.searchParams.set('pagesize', String(size));
    headers.Link = `<${config.baseUrl}${ctx.path}${next.search}>; rel="next"`;
  }
  return { offset, size, headers };
}
