// GET /dataset/{id} with search parameters: the search runs over the
// dataset's compounds, then the request goes on to the dataset router restricted to the
// hits with compound_uris[] (SPEC §1 rule 8), so the answer is that dataset with its
// values, in every format the dataset service writes, usable as an algorithm's dataset_uri.
import type Koa from 'koa';
import { DataFactory } from 'n3';
import { uriOf, type Deps } from '../deps.ts';
import { NotFound } from '../errors.ts';
import { pagingHeaders, parsePaging } from '../http/paging.ts';
import { send } from '../http/send.ts';
import { SEARCH_PARAMS, isSearch, searchQueryOf } from './params.ts';
import { searchReply } from './results.ts';
import { runSearch } from './run.ts';
import { disconnectSignal, similarityFeatureUri } from './request.ts';
import { bound } from '../store/api.ts';

const { namedNode } = DataFactory;
const CONSUMED = new Set<string>([...SEARCH_PARAMS, 'threshold', 'page', 'pagesize', 'max']);

export function datasetSearch(deps: Deps): Koa.Middleware {
  return async (ctx, next) => {
    if (!isSearch(ctx.query)) return next();
    const dataset = uriOf(deps.config, `/dataset/${encodeURIComponent(String(ctx.params.id))}`);
    if (!(await deps.store.ask('search-dataset-exists', { dataset: namedNode(dataset) }))) throw new NotFound(`dataset ${dataset} not found`);
    const query = searchQueryOf(ctx.query);
    const paging = parsePaging(ctx.query, deps.config);
    const within = (await deps.store.select('search-dataset-compounds', { dataset: namedNode(dataset) })).map((r) => bound(r, 'compound'));
    const { hits, hasMore } = await runSearch(deps, query, paging, { within, signal: disconnectSignal(ctx) });
    const pageUri = uriOf(deps.config, ctx.path) + (ctx.querystring ? '?' + ctx.querystring : '');
    const headers = pagingHeaders(pageUri, paging, hasMore);
    if (hits.length === 0) {
      // compound_uris[] with no URI means "all compounds": answer the empty result here.
      const reply = searchReply({ query, hits, resultUri: dataset, similarityFeature: similarityFeatureUri(deps) });
      Object.assign(reply.headers, headers);
      return send(ctx, reply);
    }
    const rest = Object.fromEntries(Object.entries(ctx.query).filter(([k]) => !CONSUMED.has(k) && k !== 'compound_uris' && k !== 'compound_uris[]'));
    ctx.query = { ...rest, 'compound_uris[]': hits.map((h) => h.uri) };
    ctx.set(headers);
    await next();
  };
}
