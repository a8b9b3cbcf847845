// GET /compound with ?search=, ?similarity= or ?smarts= / ?substructure= (issue #8). This
// router is mounted before the compound router and passes every other request on, so the
// compound collection itself stays in src/routes/compound.ts.
import Router from '@koa/router';
import type Koa from 'koa';
import { uriOf, type Deps } from '../deps.ts';
import { send } from '../http/send.ts';
import { pagingHeaders, parsePaging } from '../http/paging.ts';
import { isSearch, searchQueryOf } from './params.ts';
import { runSearch } from './run.ts';
import { searchReply } from './results.ts';

/** Stable URI of the similarity feature every similarity hit carries a value of. */
export const similarityFeatureUri = (deps: Pick<Deps, 'config'>): string => uriOf(deps.config, '/feature/similarity');

/** Aborted when the client goes away before the response is complete (issue #8 §5). */
export function disconnectSignal(ctx: Koa.Context): AbortSignal {
  const controller = new AbortController();
  ctx.res.once('close', () => {
    if (!ctx.res.writableFinished) controller.abort();
  });
  return controller.signal;
}

/** The request's URI with its query re-encoded, used as the result's subject in RDF. */
export function resultUriOf(deps: Pick<Deps, 'config'>, ctx: Koa.Context): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(ctx.query)) for (const one of Array.isArray(v) ? v : [v ?? '']) params.append(k, one);
  return uriOf(deps.config, ctx.path) + '?' + params.toString();
}

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
  return router;
}
