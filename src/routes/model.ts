// /model: list, get (RDF, or the model itself as ONNX), its QMRF report, delete; POST /model/{id} predicts as a task.
import Router from '@koa/router';
import type Koa from 'koa';
import type { Deps } from '../deps.ts';
import { uriOf } from '../deps.ts';
import { handle } from '../http/send.ts';
import { emptyReply, rdfReply, uriListReply } from '../http/reply.ts';
import { readForm } from '../http/body.ts';
import { deleteModel, listModels, modelGraph, modelGraphs } from '../models/models.ts';
import { startPredict } from '../models/modelPredict.ts';
import { parsePaging, pagingHeaders } from '../http/paging.ts';
import { jobCallerOf, readFilter } from '../auth/readAccess.ts';
import { NotFound } from '../errors.ts';
import { OT } from '../rdf/vocab.ts';
import { exportOnnx, ONNX } from '../models/export/onnxExport.ts';
import { qmrfReply } from '../models/export/qmrfReply.ts';

export function modelRouter(deps: Deps): Router {
  const router = new Router();
  const modelUri = (ctx: Koa.Context) => uriOf(deps.config, `/model/${encodeURIComponent(String(ctx.params.id))}`);

  router.get('/model', handle(async (ctx) => {
    const page = parsePaging(ctx.query, deps.config);
    const { uris, more } = await listModels(deps, page, readFilter(deps, ctx));
    return uriListReply(uris, { headers: pagingHeaders(ctx.href, page, more), quads: () => modelGraphs(deps, uris) });
  }));

  router.get('/model/:id', handle(async (ctx) => {
    const uri = modelUri(ctx);
    const reply = rdfReply(await modelGraph(deps, uri), { uris: [uri] });
    // Offered last, so that no Accept and */* keep RDF/XML; built only when asked for.
    reply.variants.push({ type: ONNX, produce: () => exportOnnx(deps, uri) });
    return { ...reply, depends: [uri] };
  }));

  // The model's QMRF report, filled from the store (docs/models-export.md).
  router.get('/model/:id/qmrf', handle(async (ctx) => qmrfReply(deps, modelUri(ctx), readFilter(deps, ctx))));

  // The ot:Parameter nodes a model lists (SPEC §2.1) have URIs of their own; each dereferences.
  router.get('/model/:id/parameter/:n', handle(async (ctx) => {
    const uri = modelUri(ctx);
    const param = `${uri}/parameter/${encodeURIComponent(String(ctx.params.n))}`;
    const quads = (await modelGraph(deps, uri)).filter((q) => q.subject.value === param || (q.predicate.equals(OT.parameters) && q.object.value === param));
    if (quads.length === 0) throw new NotFound(`model ${uri} has no parameter ${param}`);
    return rdfReply(quads);
  }));

  router.delete('/model/:id', handle(async (ctx) => {
    await deleteModel(deps, modelUri(ctx));
    return emptyReply();
  }));

  router.post('/model/:id', handle(async (ctx) => {
    const form = await readForm(ctx);
    return startPredict(deps, modelUri(ctx), form, await jobCallerOf(deps, ctx, form));
  }));
  return router;
}
