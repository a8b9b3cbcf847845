// /validation: cross-validation, training/test split and external test-set validation as
// tasks (SPEC §4.3), each resulting in a validation resource served in every RDF syntax
// and its held-out predictions as CSV; listed with ?model= ?algorithm= ?dataset= and
// paging; learners compared on the same folds by /validation/report/algorithm_comparison.
import Router from '@koa/router';
import type Koa from 'koa';
import type { Deps } from '../deps.ts';
import { uriOf } from '../deps.ts';
import { handle } from '../http/send.ts';
import { emptyReply, rdfVariants, uriListReply, type Reply } from '../http/reply.ts';
import { Form, readForm } from '../http/body.ts';
import { parsePaging, pagingHeaders } from '../http/paging.ts';
import { callerOf } from '../auth/caller.ts';
import { checkIri } from '../store/binder.ts';
import { VALIDATION_JOB, type ValidationJobParams } from '../validation/validationJob.ts';
import { readLearningRequest, readTestSetRequest } from '../validation/validationRequest.ts';
import { deleteValidation, listValidations, predictionRows, predictionsCsv, validationGraph, validationGraphs } from '../validation/validations.ts';
import { compareAlgorithms, comparisonCsv } from '../validation/comparison.ts';
import { readFilter } from '../auth/readAccess.ts';

const query = (ctx: Koa.Context, name: string): string | undefined => (typeof ctx.query[name] === 'string' ? (ctx.query[name] as string) : undefined);

export function validationRouter(deps: Deps): Router {
  const router = new Router();
  const validationUri = (ctx: Koa.Context) => uriOf(deps.config, `/validation/${encodeURIComponent(String(ctx.params.id))}`);

  const submit = async (ctx: Koa.Context, params: ValidationJobParams, title: string): Promise<Reply> => {
    const caller = callerOf(ctx);
    const task = await deps.tasks.submit<ValidationJobParams>(VALIDATION_JOB, params, { title, creator: uriOf(deps.config, `/validation/${params.type}`), ...caller });
    return deps.tasks.reply(task);
  };

  router.get('/validation', handle(async (ctx) => {
    const page = parsePaging(ctx.query, deps.config);
    const { uris, more } = await listValidations(deps, page, { model: query(ctx, 'model'), algorithm: query(ctx, 'algorithm'), dataset: query(ctx, 'dataset') }, readFilter(deps, ctx));
    return uriListReply(uris, { headers: pagingHeaders(ctx.href, page, more), quads: () => validationGraphs(deps, uris) });
  }));

  for (const type of ['crossvalidation', 'training_test_split'] as const) {
    router.post(`/validation/${type}`, handle(async (ctx) => {
      const form = await readForm(ctx);
      const params = await readLearningRequest(deps, form, type, callerOf(ctx).subjectid ?? form.get('subjectid'));
      return submit(ctx, params, `${type === 'crossvalidation' ? 'Cross-validation' : 'Training/test split'} of ${params.algorithmUri} on ${params.datasetUri}`);
    }));
  }

  router.post('/validation/test_set_validation', handle(async (ctx) => {
    const form = await readForm(ctx);
    const params = await readTestSetRequest(deps, form, callerOf(ctx).subjectid ?? form.get('subjectid'));
    return submit(ctx, { type: 'test_set_validation', ...params }, `Validation of ${params.model} on ${params.testDataset}`);
  }));

  const compare = async (form: Form): Promise<Reply> => {
    const uris = form.all('validation_uris').flatMap((v) => v.split(/[\s,]+/)).filter(Boolean).map((u) => checkIri(u, 'validation_uris'));
    const report = await compareAlgorithms(deps, uris);
    return {
      status: 200,
      headers: {},
      page: true,
      variants: [
        { type: 'application/json', produce: () => JSON.stringify(report, null, 2) + '\n' },
        { type: 'text/csv', produce: () => comparisonCsv(report) },
      ],
    };
  };
  router.post('/validation/report/algorithm_comparison', handle(async (ctx) => compare(await readForm(ctx))));
  router.get('/validation/report/algorithm_comparison', handle((ctx) => compare(Form.fromSearchParams(new URLSearchParams(ctx.querystring)))));

  router.get('/validation/:id', handle(async (ctx) => {
    const uri = validationUri(ctx);
    const quads = await validationGraph(deps, uri);
    return {
      status: 200,
      headers: {},
      variants: [...rdfVariants(quads), { type: 'text/csv', produce: async () => predictionsCsv(await predictionRows(deps, uri)) }],
    };
  }));

  router.delete('/validation/:id', handle(async (ctx) => {
    await deleteValidation(deps, validationUri(ctx));
    return emptyReply();
  }));
  return router;
}
