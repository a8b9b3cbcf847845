// Test-only routes (never mounted by the public app): write and read a small graph
// through the real store, so durability tests and benchmarks can drive the server over
// HTTP before any resource router exists.
import Router from '@koa/router';
import { DataFactory } from 'n3';
import type { Deps } from '../../src/deps.ts';
import { uriOf } from '../../src/deps.ts';
import { handle } from '../../src/http/send.ts';
import { emptyReply, rdfReply, uriListReply } from '../../src/http/reply.ts';
import { readRaw } from '../../src/http/body.ts';
import { NotFound } from '../../src/errors.ts';
import { DC, OT, RDF } from '../../src/rdf/vocab.ts';

const { quad, namedNode, literal } = DataFactory;

/** The graph PUT writes: a title holding the body, then `size - 2` numbered descriptions. */
export function testGraph(uri: string, value: string, size = 3) {
  const s = namedNode(uri);
  return [
    quad(s, RDF.type, OT.Dataset),
    quad(s, DC.title, literal(value)),
    ...Array.from({ length: Math.max(0, size - 2) }, (_, i) => quad(s, DC.description, literal(`${value} #${i}`))),
  ];
}

export function testGraphRouter(deps: Deps): Router {
  const router = new Router();
  const uri = (id: string) => uriOf(deps.config, `/test-graph/${encodeURIComponent(id)}`);
  router.put('/test-graph/:id', handle(async (ctx) => {
    const value = (await readRaw(ctx)).toString('utf8');
    const size = Number(ctx.query.triples ?? 3);
    await deps.store.replaceGraph(uri(ctx.params.id), testGraph(uri(ctx.params.id), value, size));
    return uriListReply([uri(ctx.params.id)]);
  }));
  router.get('/test-graph/:id', handle(async (ctx) => {
    const quads = await deps.store.graph(uri(ctx.params.id));
    if (quads.length === 0) throw new NotFound(`no test graph ${ctx.params.id}`);
    return rdfReply(quads);
  }));
  router.delete('/test-graph/:id', handle(async (ctx) => {
    await deps.store.dropGraph(uri(ctx.params.id));
    return emptyReply();
  }));
  return router;
}
