// /algorithm (SPEC §4.1): the catalogue listed (?sameas=, ?type= with subclasses, paging),
// each algorithm described in every RDF syntax and JSON, and applied by POST as a task.
import Router from '@koa/router';
import type Koa from 'koa';
import { DataFactory } from 'n3';
import type { Deps } from '../deps.ts';
import { handle } from '../http/send.ts';
import { uriListReply, rdfVariants, type Reply } from '../http/reply.ts';
import { readForm, type Form } from '../http/body.ts';
import { BadRequest, HttpError, NotFound } from '../errors.ts';
import { parsePaging, pagingHeaders, fetchPage } from '../http/paging.ts';
import { checkIri } from '../store/binder.ts';
import { readUriParam } from '../http/uriParam.ts';
import { algorithmById } from '../algorithms/catalogue.ts';
import { algorithmJson, algorithmQuads, type DescribeOptions } from '../algorithms/describe.ts';
import { algorithmUri, HASH, storedValues } from '../algorithms/parameterised.ts';
import { readApplyRequest } from '../algorithms/request.ts';
import { APPLY_JOB, defineApplyJob, type ApplyJobParams } from '../algorithms/job.ts';
import { applyAlgorithm } from '../algorithms/apply.ts';
import { algorithmIO } from '../algorithms/datasetIO.ts';
import type { AlgorithmDef } from '../algorithms/types.ts';
import { ATYPE, DC, ERR, PREFIXES } from '../rdf/vocab.ts';
import type { Quad } from '@rdfjs/types';
import { callerOf } from '../auth/caller.ts';
import { directReply } from '../tasks/taskReply.ts';
import { redact } from '../auth/redact.ts';

const { namedNode } = DataFactory;

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

function list(deps: Deps, ctx: Koa.Context): Reply {
  const paging = parsePaging(ctx.query, deps.config);
  const sameas = typeof ctx.query.sameas === 'string' ? ctx.query.sameas : undefined;
  const type = typeof ctx.query.type === 'string' ? ctx.query.type : undefined;
  const { items, hasMore } = fetchPage(paging, (limit, offset) => {
    const page = { limit: { raw: limit }, offset: { raw: offset } };
    const text = sameas
      ? deps.store.queries.text('algorithm-list-by-sameas', { sameas: namedNode(checkIri(sameas, 'sameas')), ...page })
      : type
        ? deps.store.queries.text('algorithm-list-by-type', { type: namedNode(typeIri(type)), ...page })
        : deps.store.queries.text('algorithm-list', page);
    const rows = deps.store.queryText(text, { union: true });
    return Array.isArray(rows) ? (rows as Array<Record<string, { value: string }>>).map((r) => r.a.value) : [];
  });
  // SPEC §7.1: 404 when no algorithm has the owl:sameAs asked for; a type filter with no
  // match is an empty list, as /task?query= answers.
  if (items.length === 0 && sameas && paging.page === 0) throw new NotFound(`no algorithm ${sameas ? `with owl:sameAs ${sameas}` : `of type ${type}`}`);
  return uriListReply(items, {
    quads: () => items.flatMap((u) => quadsOf(deps, u)),
    headers: pagingHeaders(ctx.href, paging, hasMore),
  });
}

function resolve(deps: Deps, id: string, hash?: string): { def: AlgorithmDef; uri: string } {
  const def = algorithmById(id);
  if (!def) throw new NotFound(`no algorithm ${id}`);
  const uri = hash ? `${algorithmUri(deps, id)}/${hash}` : algorithmUri(deps, id);
  if (hash && (!HASH.test(hash) || !deps.store.hasGraph(uri))) throw new NotFound(`no parameterised algorithm ${uri}`);
  return { def, uri };
}

/**
 * How an algorithm is described: generic ones from the catalogue, parameterised ones with
 * the values and date their graph holds. Built from the definition rather than read back,
 * so parameter values keep their declared datatypes (the store reads xsd:int as integer).
 */
function options(deps: Deps, def: AlgorithmDef, uri: string): DescribeOptions {
  if (uri === algorithmUri(deps, def.id)) return {};
  const date = deps.store.match(namedNode(uri), DC.date, null, uri)[0]?.object.value;
  return { values: storedValues(deps, def, uri), parent: algorithmUri(deps, def.id), date };
}

function quadsOf(deps: Deps, uri: string): Quad[] {
  const [id] = uri.slice(algorithmUri(deps, '').length).split('/');
  const def = algorithmById(id);
  return def ? algorithmQuads(def, uri, options(deps, def, uri)) : deps.store.graph(uri);
}

function describe(deps: Deps, id: string, hash?: string): Reply {
  const { def, uri } = resolve(deps, id, hash);
  return {
    status: 200,
    headers: {},
    variants: [...rdfVariants(() => quadsOf(deps, uri)), { type: 'application/json', produce: () => JSON.stringify(algorithmJson(def, uri, options(deps, def, uri)), null, 2) + '\n' }],
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
  defineApplyJob(deps, io);
  const router = new Router();
  router.get('/algorithm', handle((ctx) => list(deps, ctx)));
  router.get('/algorithm/:id', handle((ctx) => describe(deps, ctx.params.id)));
  router.get('/algorithm/:id/:hash', handle((ctx) => describe(deps, ctx.params.id, ctx.params.hash)));

  const apply = (hashed: boolean) => handle(async (ctx) => {
    const { def } = resolve(deps, ctx.params.id, hashed ? ctx.params.hash : undefined);
    const form = await readForm(ctx);
    const params = await readApplyRequest(deps, def, form, hashed ? ctx.params.hash : undefined);
    const subjectid = subjectidOf(ctx, form);
    await io.check(params.datasetUri, params.predictionFeature, subjectid);
    const task = await deps.tasks.submit<ApplyJobParams>(APPLY_JOB, { id: def.id, ...params }, {
      title: `Apply ${def.title} to ${redact(params.datasetUri)}`,
      creator: params.algorithmUri,
      owner: ownerOf(ctx),
      subjectid,
    });
    return deps.tasks.reply(task);
  });
  router.post('/algorithm/:id', apply(false));
  router.post('/algorithm/:id/:hash', apply(true));

  // SPEC §4.1 "Apply feature selection": form dataset_uri and feature_definition (the
  // candidate features), answering text/uri-list of the selected features.
  router.post('/algorithm/preprocessing/featureselection/:id', handle(async (ctx) => {
    const { def } = resolve(deps, ctx.params.id);
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
