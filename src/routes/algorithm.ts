// /algorithm (SPEC §4.1): the catalogue listed (?sameas=, ?type= with subclasses, paging),
// each algorithm described in every RDF syntax and plain JSON, and applied by POST as a task.
import Router from '@koa/router';
import type Koa from 'koa';
import type { Deps } from '../deps.ts';
import { handle } from '../http/send.ts';
import { uriListReply, rdfVariants, type Reply } from '../http/reply.ts';
import { readForm } from '../http/body.ts';
import { BadRequest } from '../errors.ts';
import { parsePaging, pagingHeaders } from '../http/paging.ts';
import { checkIri } from '../store/binder.ts';
import { algorithmGraph, algorithmGraphs, listAlgorithms, resolveAlgorithm } from '../algorithms/catalogue.ts';
import { selectFeatures, startApply, type ApplyTarget } from '../algorithms/startApply.ts';
import { ERR, PREFIXES } from '../rdf/vocab.ts';
import { jobCallerOf } from '../auth/readAccess.ts';
import { directReply } from '../tasks/taskReply.ts';

/**
 * The ?type= class: a full IRI or a prefixed name with a prefix of the service's own RDF
 * (`ota:Classification`). An IRI that stops where a namespace ends in `#` was cut at the
 * fragment by the client (RFC 3986 §3.5: `#` ends the query), so the 400 says how to send it.
 */
export function typeIri(value: string): string {
  const colon = value.indexOf(':');
  const ns = colon > 0 ? PREFIXES[value.slice(0, colon)] : undefined;
  if (ns !== undefined && !value.slice(colon + 1).startsWith('//')) return checkIri(ns + value.slice(colon + 1), 'type');
  if (Object.values(PREFIXES).some((n) => n.endsWith('#') && (n === value + '#' || n === value))) {
    throw new BadRequest(`type ${JSON.stringify(value)} names a namespace, not a class: was the IRI cut at "#"?`, {
      code: ERR.InvalidParameter,
      details: `Write "#" as %23 in a query string (e.g. type=${encodeURIComponent(value.replace(/#$/, '') + '#Classification')}), or use a prefixed name such as ota:Classification.`,
    });
  }
  return checkIri(value, 'type');
}

async function list(deps: Deps, ctx: Koa.Context): Promise<Reply> {
  const paging = parsePaging(ctx.query, deps.config);
  const sameas = typeof ctx.query.sameas === 'string' ? ctx.query.sameas : undefined;
  const type = typeof ctx.query.type === 'string' ? typeIri(ctx.query.type) : undefined;
  const { items, hasMore } = await listAlgorithms(deps, paging, { sameas, type });
  return uriListReply(items, {
    quads: () => algorithmGraphs(deps, items),
    headers: pagingHeaders(ctx.href, paging, hasMore),
  });
}

async function describe(deps: Deps, id: string, hash?: string): Promise<Reply> {
  const { uri } = await resolveAlgorithm(deps, id, hash);
  return { status: 200, headers: {}, variants: rdfVariants(() => algorithmGraph(deps, uri)), depends: [uri] };
}

/** POST /algorithm/{id}[/{hash}]: the form, the caller who may read what it names, one domain call. */
async function apply(deps: Deps, ctx: Koa.Context, target: ApplyTarget): Promise<Reply> {
  const form = await readForm(ctx);
  return startApply(deps, target, form, await jobCallerOf(deps, ctx, form));
}

export function algorithmRouter(deps: Deps): Router {
  const router = new Router();
  router.get('/algorithm', handle((ctx) => list(deps, ctx)));
  router.get('/algorithm/:id', handle((ctx) => describe(deps, ctx.params.id)));
  router.get('/algorithm/:id/:hash', handle((ctx) => describe(deps, ctx.params.id, ctx.params.hash)));
  router.post('/algorithm/:id', handle(async (ctx) => apply(deps, ctx, { id: ctx.params.id })));
  router.post('/algorithm/:id/:hash', handle(async (ctx) => apply(deps, ctx, { id: ctx.params.id, hash: ctx.params.hash })));
  router.post('/algorithm/preprocessing/featureselection/:id', handle(async (ctx) => {
    const form = await readForm(ctx);
    const caller = await jobCallerOf(deps, ctx, form);
    const { selected, title, creator } = await selectFeatures(deps, ctx.params.id, form, caller);
    return directReply(deps, selected, { title, creator, owner: caller.owner });
  }));
  return router;
}
