// GET /dataset/{id}/warnings: what an upload (or a job) did not keep, row by row, as RDF
// (the dataset's ot:warning triples and their counts), text/csv or text/plain.
import Router from '@koa/router';
import type { Deps } from '../deps.ts';
import { uriOf } from '../deps.ts';
import { handle } from '../http/send.ts';
import { rdfVariants, type Reply } from '../http/reply.ts';
import { ownTerms } from '../rdf/vocab.ts';
import { TEXT_PLAIN } from '../rdf/formats.ts';
import { readWarnings, warningsCsv, warningsQuads, warningsText } from '../datasets/datasetWarnings.ts';

export function datasetWarningsRouter(deps: Deps): Router {
  const router = new Router();
  router.get('/dataset/:id/warnings', handle(async (ctx) => {
    const dataset = uriOf(deps.config, `/dataset/${encodeURIComponent(String(ctx.params.id))}`);
    const texts = await readWarnings(deps, dataset);
    // text/plain is the warnings one a line here, for people, not N-Triples as elsewhere.
    const variants = rdfVariants(warningsQuads(ownTerms(deps.config.baseUrl), dataset, texts)).filter((v) => v.type !== TEXT_PLAIN);
    variants.push({ type: 'text/csv', produce: () => warningsCsv(texts) }, { type: 'text/plain', produce: () => warningsText(texts) });
    return { status: 200, headers: {}, variants, depends: [dataset] } satisfies Reply;
  }));
  return router;
}
