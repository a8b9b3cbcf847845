// GET and POST /sparql: the SPARQL 1.1 Protocol query operation over the whole store
// Read-only: updates answer 403. Queries run on the store's read replica,
// off the event loop and within SPARQL_TIMEOUT_MS.
import Router from '@koa/router';
import type Koa from 'koa';
import type { Deps } from '../deps.ts';
import { uriOf } from '../deps.ts';
import { handle } from '../http/send.ts';
import type { Reply, Variant } from '../http/reply.ts';
import { contentType, readForm, readRaw, Form } from '../http/body.ts';
import { BadRequest, Forbidden, UnsupportedMediaType } from '../errors.ts';
import { RDF_TYPES } from '../rdf/formats.ts';
import { ERR } from '../rdf/vocab.ts';
import { parseSparqlQuery, SPARQL_RESULTS_TYPES } from '../store/sparqlQuery.ts';
import { callerOf } from '../auth/caller.ts';
import { readableGraphs } from '../auth/readableGraphs.ts';
import { readAccessOf } from '../auth/readAccess.ts';
import { checkSparql } from '../http/limits.ts';

const QUERY = 'application/sparql-query';
const UPDATE = 'application/sparql-update';
const FORMS = ['application/x-www-form-urlencoded', 'multipart/form-data'];

const forbidden = () => new Forbidden('SPARQL updates are not allowed here: the endpoint is read-only', { code: ERR.SparqlUpdateForbidden });

interface ProtocolRequest {
  query: string;
  defaultGraphs: string[];
  namedGraphs: string[];
}

/** The protocol's parameters from a form or query string (§2.1.1-2.1.3). */
function fromForm(form: Form, body?: string): ProtocolRequest {
  if (form.has('update')) throw forbidden();
  const queries = body === undefined ? form.all('query') : [body];
  const [query] = queries;
  if (query === undefined || !query.trim()) {
    throw new BadRequest('no SPARQL query: send it as the "query" parameter or as an application/sparql-query body', { code: ERR.MissingParameter });
  }
  if (queries.length > 1) throw new BadRequest('more than one "query" parameter', { code: ERR.InvalidParameter });
  return { query, defaultGraphs: form.all('default-graph-uri'), namedGraphs: form.all('named-graph-uri') };
}

const urlForm = (ctx: Koa.Context) => Form.fromSearchParams(new URLSearchParams(ctx.querystring));

async function fromPost(ctx: Koa.Context): Promise<ProtocolRequest> {
  const type = contentType(ctx);
  if (type === UPDATE) throw forbidden();
  if (type === QUERY) return fromForm(urlForm(ctx), (await readRaw(ctx)).toString('utf8'));
  if (FORMS.includes(type)) return fromForm(await readForm(ctx));
  throw new UnsupportedMediaType(type, [QUERY, ...FORMS]);
}

/** Aborted when the client goes away before its answer is sent. */
function clientGone(ctx: Koa.Context): AbortSignal {
  const controller = new AbortController();
  ctx.res.once('close', () => {
    if (!ctx.res.writableFinished) controller.abort();
  });
  return controller.signal;
}

async function answer(deps: Deps, ctx: Koa.Context, request: ProtocolRequest): Promise<Reply> {
  checkSparql(request.query, deps.config);
  const query = parseSparqlQuery(request.query, uriOf(deps.config, '/'));
  // With auth on, only the graphs the caller may read (SPEC §5).
  const graphs = await readableGraphs(deps, callerOf(ctx).owner, readAccessOf(deps, ctx));
  const common = { defaultGraphs: request.defaultGraphs, namedGraphs: request.namedGraphs, graphs, signal: clientGone(ctx) };
  const variants: Variant[] = query.kind === 'select' || query.kind === 'ask'
    ? SPARQL_RESULTS_TYPES.map((type) => ({ type, produce: () => deps.store.sparql(query, { ...common, resultsFormat: type }) }))
    : RDF_TYPES.map(({ type, syntax }) => ({ type, produce: () => deps.store.sparql(query, { ...common, syntax }) }));
  return { status: 200, headers: {}, variants };
}

export function sparqlRouter(deps: Deps): Router {
  const router = new Router();
  router.get('/sparql', handle((ctx) => answer(deps, ctx, fromForm(urlForm(ctx)))));
  router.post('/sparql', handle(async (ctx) => answer(deps, ctx, await fromPost(ctx))));
  return router;
}
