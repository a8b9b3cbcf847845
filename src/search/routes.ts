// GET /compound and GET /dataset/{id} with ?search=, ?similarity= or ?smarts= /
// ?substructure=. This router is mounted before the compound and dataset
// routers and passes every other request on, so those resources stay in their own files.
import Router from '@koa/router';
import type Koa from 'koa';
import type { Deps } from '../deps.ts';
import { handle, send } from '../http/send.ts';
import { rdfReply } from '../http/reply.ts';
import { pagingHeaders, parsePaging } from '../http/paging.ts';
import { isSearch, searchQueryOf } from './params.ts';
import { runSearch } from './run.ts';
import { searchReply, similarityFeatureQuads } from './results.ts';
import { datasetSearch } from './datasetSearch.ts';
import { disconnectSignal, resultUriOf, similarityFeatureUri } from './request.ts';

export function searchRouter(deps: Deps): Router {
  const router = new Router();
  const compoundSearch: Koa.Middleware = async (ctx, next) => {
    if (!isSearch(ctx.query)) return next();
    const query = searchQueryOf(ctx.query);
    const paging = parsePaging(ctx.query, deps.config);
    const { hits, hasMore } = await runSearch(deps, query, paging, { signal: disconnectSignal(ctx) });
    const resultUri = resultUriOf(deps, ctx);
    const reply = searchReply({ query, hits, resultUri, similarityFeature: similarityFeatureUri(deps) });
    Object.assign(reply.headers, pagingHeaders(resultUri, paging, hasMore));
    await send(ctx, reply);
  };
  router.get('/compound', compoundSearch);
  router.get('/compound/', compoundSearch);
  router.get('/dataset/:id', datasetSearch(deps));
  // The feature every similarity value belongs to resolves like any feature.
  router.get('/feature/similarity', handle(() => rdfReply(similarityFeatureQuads(similarityFeatureUri(deps)), { uris: [similarityFeatureUri(deps)] })));
  return router;
}
