// /ontology: the loaded ontology graphs. Lists page with page/pagesize/max.
import Router from '@koa/router';
import type Koa from 'koa';
import type { Deps } from '../deps.ts';
import { handle } from '../http/send.ts';
import { emptyReply, rdfReply, uriListReply } from '../http/reply.ts';
import { readUpload, readRdf } from '../http/body.ts';
import { parsePaging, pagingHeaders } from '../http/paging.ts';
import { catalogueQuads, ontologyUri, createOntology, deleteOntology, listOntologies, ontologyTriples, replaceOntology, type OntologyUpload } from '../ontology/ontology.ts';

/** The body (RDF in any syntax of the table, or a multipart `file`) and its title. */
async function uploadOf(ctx: Koa.Context): Promise<OntologyUpload> {
  const upload = await readUpload(ctx);
  const title = upload.form.get('title') ?? (typeof ctx.query.title === 'string' ? ctx.query.title : undefined);
  return { parse: (base) => readRdf(ctx, base, upload), title, filename: upload.filename };
}

export function ontologyRouter(deps: Deps): Router {
  const router = new Router();

  router.get('/ontology', handle(async (ctx) => {
    const paging = parsePaging(ctx.query, deps.config);
    const { entries, hasMore, total } = await listOntologies(deps, paging);
    return uriListReply(entries.map((e) => e.uri), {
      quads: catalogueQuads(entries),
      headers: pagingHeaders(ctx.href, paging, hasMore, total),
    });
  }));

  router.post('/ontology', handle(async (ctx) => {
    const uri = await createOntology(deps, await uploadOf(ctx));
    return uriListReply([uri], { uriListFirst: true, headers: { Location: uri } });
  }));

  router.get('/ontology/:id', handle(async (ctx) => ({ ...rdfReply(await ontologyTriples(deps, ctx.params.id)), depends: [ontologyUri(deps, ctx.params.id)] })));

  router.put('/ontology/:id', handle(async (ctx) => {
    const { uri, created } = await replaceOntology(deps, ctx.params.id, await uploadOf(ctx));
    return uriListReply([uri], { uriListFirst: true, status: created ? 201 : 200, headers: created ? { Location: uri } : {} });
  }));

  router.delete('/ontology/:id', handle(async (ctx) => {
    await deleteOntology(deps, ctx.params.id);
    return emptyReply();
  }));

  return router;
}
