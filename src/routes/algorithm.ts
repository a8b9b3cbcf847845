// /algorithm (SPEC §4.1): the catalogue listed (?sameas=, ?type= with subclasses, paging),
// each algorithm described in every RDF syntax and JSON, and applied by POST as a task.
import Router from '@koa/router';
import type Koa from 'koa';
import type { Deps } from '../deps.ts';
import { handle } from '../http/send.ts';
import { uriListReply, rdfVariants, type Reply } from '../http/reply.ts';
import { readForm, type Form } from '../http/body.ts';
import { BadRequest, HttpError, NotFound } from '../errors.ts';
import { parsePaging, pagingHeaders } from '../http/paging.ts';
import { checkIri } from '../store/binder.ts';
import { readUriParam } from '../http/uriParam.ts';
import { algorithmJson } from '../algorithms/describe.ts';
import { algorithmGraph, algorithmGraphs, describeOptions, listAlgorithms, resolveAlgorithm } from '../algorithms/listing.ts';
import { readApplyRequest } from '../algorithms/request.ts';
import { APPLY_JOB, type ApplyJobParams } from '../algorithms/job.ts';
import { applyAlgorithm } from '../algorithms/apply.ts';
import { algorithmIO } from '../algorithms/datasetIO.ts';
import { ATYPE, ERR, PREFIXES } from '../rdf/vocab.ts';
import { callerOf } from '../auth/caller.ts';
import { directReply } from '../tasks/taskReply.ts';
import { redact } from '../auth/redact.ts';

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
  const { def, uri } = await resolveAlgorithm(deps, id, hash);
  const json = algorithmJson(def, uri, await describeOptions(deps, def, uri));
  return {
    status: 200,
    headers: {},
    variants: [...rdfVariants(() => algorithmGraph(deps, uri)), { type: 'application/json', produce: () => JSON.stringify(json, null, 2) + '\n' }],
    depends: [uri],
  };
}

/** The caller's token (SPEC §5), from every source the auth middleware reads. */
function subjectidOf(ctx: Koa.Context, form: Form): string | undefined {
  return callerOf(ctx).subjectid ?? form.get('subjectid');
}

/** The authenticated user, when the auth middleware set one (a task acts with its rights). */
function ownerOf(ctx: Koa.Context): string | undefined {
  return callerOf(ctx).owner;
}

export function algorithmRouter(deps: Deps): Router {
  const io = algorithmIO(deps);
  const router = new Router();
  router.get('/algorithm', handle((ctx) => list(deps, ctx)));
  router.get('/algorithm/:id', handle((ctx) => describe(deps, ctx.params.id)));
  router.get('/algorithm/:id/:hash', handle((ctx) => describe(deps, ctx.params.id, ctx.params.hash)));

  const apply = (hashed: boolean) => handle(async (ctx) => {
    const { def } = await resolveAlgorithm(deps, ctx.params.id, hashed ? ctx.params.hash : undefined);
    const form = await readForm(ctx);
    const params = await readApplyRequest(deps, def, form, hashed ? ctx.params.hash : undefined);
    const subjectid = subjectidOf(ctx, form);
    await io.check(params.datasetUri, params.predictionFeature, subjectid);
    const task = await deps.tasks.submit<ApplyJobParams>(APPLY_JOB, { id: def.id, ...params }, {
      title: `Apply ${def.title} to ${redact(params.datasetUri)}`,
      creator: params.algorithmUri,
      owner: ownerOf(ctx),
      subjectid,
      client: callerOf(ctx).client,
    });
    return deps.tasks.reply(task);
  });
  router.post('/algorithm/:id', apply(false));
  router.post('/algorithm/:id/:hash', apply(true));

  // SPEC §4.1 "Apply feature selection": form dataset_uri and feature_definition (the
  // candidate features), answering text/uri-list of the selected features.
  router.post('/algorithm/preprocessing/featureselection/:id', handle(async (ctx) => {
    const { def } = await resolveAlgorithm(deps, ctx.params.id);
    if (!def.types.some((t) => t.equals(ATYPE.FeatureSelection))) throw new NotFound(`${ctx.params.id} is not a feature selection algorithm`);
    const form = await readForm(ctx);
    const params = await readApplyRequest(deps, def, form);
    const candidates = form.all('feature_definition').map((f) => readUriParam(f, 'feature_definition'));
    if (candidates.length > 0) {
      const url = new URL(params.datasetUri);
      for (const f of candidates) url.searchParams.append('feature_uris[]', f);
      params.datasetUri = url.href;
    }
    const subjectid = subjectidOf(ctx, form);
    let selected: string[];
    try {
      await io.check(params.datasetUri, params.predictionFeature, subjectid);
      selected = await applyAlgorithm(io, def, params, { subjectid });
    } catch (e) {
      // The candidates travel as feature_uris[] of the dataset: name the form field the client sent.
      if (candidates.length > 0 && e instanceof HttpError && e.code.equals(ERR.FeatureNotInDataset)) {
        throw new BadRequest('feature_definition names a feature that is not in the dataset of dataset_uri', { code: ERR.FeatureNotInDataset, details: e.message });
      }
      throw e;
    }
    return directReply(deps, selected, { title: `Apply ${def.title} to ${params.datasetUri}`, creator: params.algorithmUri, owner: ownerOf(ctx) });
  }));
  return router;
}
