// The edge: negotiates a Reply's representation (Accept, or ?media= for browsers) and
// writes it. Every route goes through `handle`, so negotiation lives in one place.
import type Koa from 'koa';
import { N_TRIPLES, negotiate } from '../rdf/formats.ts';
import type { Reply } from './reply.ts';
import { contentTypeOf, sendCached } from './cache.ts';
import { preferred } from './prefer.ts';
import { edgeOf } from './jsonEdge.ts';

/** Text/html is one more representation (src/pages): a renderer set per request in ctx.state. */
export type PageRenderer = (ctx: Koa.Context, reply: Reply) => Promise<string>;
export const HTML = 'text/html';

/**
 * HTML only for replies with triples (a page shows them; a PNG or a file stays itself) or a
 * page of their own (Reply.page), and
 * only when Accept ranks it above every variant the reply has: offered last, so that no
 * Accept, `*\/*` and every type a resource already serves keep their answer (SPEC §1 rule 5).
 */
export function prefersHtml(accept: string | undefined, offered: readonly string[], page = false): boolean {
  return !!accept && (page || offered.includes(N_TRIPLES)) && negotiate(accept, [...offered, HTML]) === HTML;
}

/** Accept of a request: `?media=TYPE` overrides the header (browsers cannot set Accept). */
export function acceptOf(ctx: Koa.Context): string | undefined {
  const media = ctx.query.media;
  if (typeof media === 'string' && media) return media;
  return ctx.get('Accept') || undefined;
}

export async function send(ctx: Koa.Context, answer: Reply): Promise<void> {
  const reply = await preferred(ctx, answer);
  ctx.status = reply.status;
  for (const [k, v] of Object.entries(reply.headers)) ctx.set(k, v);
  if (reply.variants.length === 0) {
    ctx.body = null;
    // Koa answers 204 for a null body; keep the status the interface names.
    ctx.status = reply.status;
    return;
  }
  if (reply.variants.length > 1) ctx.vary('Accept');
  const page = (ctx.state as { page?: PageRenderer }).page;
  if (page && prefersHtml(acceptOf(ctx), reply.variants.map((v) => v.type), reply.page)) {
    ctx.vary('Accept');
    const html = await page(ctx, reply);
    ctx.type = `${HTML}; charset=utf-8`;
    ctx.body = html;
    ctx.status = reply.status;
    return;
  }
  const chosen = negotiate(acceptOf(ctx), reply.variants.map((v) => v.type));
  // negotiate answers one of the types offered, and refuses an empty list.
  const variant = reply.variants.find((v) => v.type === chosen) ?? reply.variants[0]!;
  const type = contentTypeOf(variant.type);
  if (await sendCached(ctx, reply, variant, type)) return;
  const body = await variant.produce(edgeOf(ctx));
  ctx.type = type;
  ctx.body = body;
  ctx.status = reply.status;
}

export type Handler = (ctx: Koa.Context) => Reply | Promise<Reply>;

/** Wraps a handler that returns a Reply into Koa middleware. */
export function handle(handler: Handler): Koa.Middleware {
  return async (ctx) => {
    await send(ctx, await handler(ctx));
  };
}
