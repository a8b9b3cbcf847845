// What a search takes from its HTTP request: the disconnect signal, the result's URI, and
// the similarity feature's URI under the service's base.
import type Koa from 'koa';
import { uriOf, type Deps } from '../deps.ts';

/** Stable URI of the similarity feature every similarity hit carries a value of. */
export const similarityFeatureUri = (deps: Pick<Deps, 'config'>): string => uriOf(deps.config, '/feature/similarity');

/** Aborted when the client goes away before the response is complete. */
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
