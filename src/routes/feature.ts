// /feature: create (POST RDF), get, replace (PUT), delete, list with paging and ?sameas=
// Thin: parameters in, domain call, Reply out.
import Router from '@koa/router';
import type Koa from 'koa';
import type { Deps } from '../deps.ts';
import { uriOf } from '../deps.ts';
import { handle } from '../http/send.ts';
import { emptyReply, rdfReply, uriListReply } from '../http/reply.ts';
import { readRdf } from '../http/body.ts';
import { createFeature, deleteFeature, featureGraph, featureGraphs, listFeatures, replaceFeature } from '../features/features.ts';
import { parsePaging, pagingHeaders } from '../http/paging.ts';
import { forceOf } from '../integrity/referrers.ts';
import { readFilter } from '../auth/readAccess.ts';

export function featureRouter(deps: Deps): Router {
  const router = new Router();
  const featureUri = (ctx: Koa.Context) => uriOf(deps.config, `/feature/${encodeURIComponent(String(ctx.params.id))}`);

  router.get('/feature', handle(async (ctx) => {
    const page = parsePaging(ctx.query, deps.config);
    const sameas = typeof ctx.query.sameas === 'string' ? ctx.query.sameas : undefined;
    const { uris, more } = await listFeatures(deps, page, sameas, readFilter(deps, ctx));
    const headers = pagingHeaders(ctx.href, page, more);
    return uriListReply(uris, { headers, quads: () => featureGraphs(deps, uris) });
  }));

  router.post('/feature', handle(async (ctx) => {
    const uri = await createFeature(deps, await readRdf(ctx, uriOf(deps.config, '/feature')));
    return uriListReply([uri], { uriListFirst: true });
  }));

  router.get('/feature/:id', handle(async (ctx) => {
    const uri = featureUri(ctx);
    return rdfReply(await featureGraph(deps, uri), { uris: [uri] });
  }));

  router.put('/feature/:id', handle(async (ctx) => {
    const uri = featureUri(ctx);
    await replaceFeature(deps, uri, await readRdf(ctx, uri), forceOf(ctx.query));
    return uriListReply([uri], { uriListFirst: true });
  }));

  router.delete('/feature/:id', handle(async (ctx) => {
    await deleteFeature(deps, featureUri(ctx), forceOf(ctx.query));
    return emptyReply();
  }));
  return router;
}
