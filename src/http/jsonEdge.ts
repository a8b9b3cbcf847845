// The request's part in a plain JSON body (src/rdf/plainJson.ts): the context's URL under
// the service's base and the resource asked for. src/app.ts sets ctx.state.serviceBase.
import type Koa from 'koa';
import type { JsonEdge } from '../rdf/plainJson.ts';
import { CONTEXT_PATH } from '../rdf/jsonContext.ts';

export function edgeOf(ctx: Koa.Context): JsonEdge | undefined {
  const base = (ctx.state as { serviceBase?: string }).serviceBase;
  return base === undefined ? undefined : { contextUrl: base + CONTEXT_PATH, resource: base + ctx.path };
}
