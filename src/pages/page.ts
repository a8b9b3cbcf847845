// What every renderer is given: the request, the reply its handler returned, and deps for
// the few lookups a person needs beside the data (depictions, feature titles).
import type Koa from 'koa';
import type { Deps } from '../deps.ts';
import type { Reply } from '../http/reply.ts';
import { replyGraph, type Graph } from './graph.ts';
import { withoutTokens } from '../http/outbound/credentials.ts';

export interface PageInput {
  ctx: Koa.Context;
  reply: Reply;
  deps: Deps;
  base: string;
  /** The request's own URI (no query). */
  uri: string;
  params: Record<string, string>;
  graph: () => Promise<Graph>;
}

export type Renderer = (input: PageInput) => Promise<string>;

export function pageInput(ctx: Koa.Context, reply: Reply, deps: Deps, params: Record<string, string>): PageInput {
  let graph: Promise<Graph> | undefined;
  const base = deps.config.baseUrl;
  return { ctx, reply, deps, base, uri: base + ctx.path, params, graph: () => (graph ??= replyGraph(reply)) };
}

/** The request's URL with its query, for the links a page writes: never with a token in it. */
export const linkUrl = (input: Pick<PageInput, 'ctx' | 'base'>): URL => withoutTokens(input.base + input.ctx.url);

/** A query parameter as one string ('' when absent). */
export const queryText = (ctx: Koa.Context, name: string): string => {
  const v = ctx.query[name];
  return Array.isArray(v) ? (v[v.length - 1] ?? '') : (v ?? '');
};
