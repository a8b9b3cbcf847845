// /dataset: list, upload (POST new, PUT append), read in every format with
// compound_uris[] / feature_uris[] restrictions and paging, parts, metadata, delete.
import Router from '@koa/router';
import type Koa from 'koa';
import { Readable } from 'node:stream';
import type { Deps } from '../deps.ts';
import { uriOf } from '../deps.ts';
import { handle } from '../http/send.ts';
import { emptyReply, rdfReply, uriListReply, type Reply, type Variant } from '../http/reply.ts';
import { readRdf, saveUpload } from '../http/body.ts';
import { JSON_PLAIN, RDF_TYPES } from '../rdf/formats.ts';
import { jsonTextStream } from '../rdf/plainJsonStream.ts';
import { CONTEXT_PATH } from '../rdf/jsonContext.ts';
import { OT, RDF as RDFNS } from '../rdf/vocab.ts';
import { DataFactory } from 'n3';
import { rdfTextStream } from '../rdf/stream.ts';
import { compoundsOf, requireDataset, viewOf } from '../datasets/datasetLayout.ts';
import { datasetCsv, datasetQuadChunks, datasetsMetadata, datasetUriList, featureDefinitions, metadataOf } from '../datasets/datasetOutput.ts';
import { datasetSdf, smilesColumn } from '../datasets/datasetChemOutput.ts';
import { deleteDataset, listDatasets } from '../datasets/datasets.ts';
import { replaceMetadata } from '../datasets/datasetMetadata.ts';
import { entryQuads } from '../datasets/datasetEntry.ts';
import { forceOf } from '../integrity/referrers.ts';
import { incomingUpload, startUpload } from '../datasets/datasetUploadJob.ts';
import { parsePaging, pagingHeaders, type Paging } from '../http/paging.ts';
// The caller's name and token (SPEC §5.1), from every source: header, query, cookie, form.
import { callerOf } from '../auth/caller.ts';
import { readFilter } from '../auth/readAccess.ts';
import { datasetNeighbourOutput, neighbourColumns } from '../models/neighbours.ts';

/** All values of a repeated query parameter, with or without the [] suffix (SPEC §1 rule 2). */
export function listParam(query: Koa.Context['query'], name: string): string[] {
  return [query[`${name}[]`], query[name]].flatMap((v) => (v === undefined ? [] : Array.isArray(v) ? v : [v])).filter((v) => v !== '');
}

const wantsPage = (query: Koa.Context['query']) => ['page', 'pagesize', 'max'].some((k) => query[k] !== undefined);

export function datasetRouter(deps: Deps): Router {
  const router = new Router();
  const datasetUri = (ctx: Koa.Context) => uriOf(deps.config, `/dataset/${encodeURIComponent(String(ctx.params.id))}`);

  router.get('/dataset', handle(async (ctx) => {
    const page = parsePaging(ctx.query, deps.config);
    const { uris, more } = await listDatasets(deps, page, readFilter(deps, ctx));
    return uriListReply(uris, { headers: pagingHeaders(ctx.href, page, more), quads: () => datasetsMetadata(deps, uris) });
  }));

  router.post('/dataset', handle(async (ctx) => startUpload(deps, await saveUpload(ctx, await incomingUpload(deps)), { ...callerOf(ctx), nominal: listParam(ctx.query, 'nominal') })));

  router.put('/dataset/:id', handle(async (ctx) => {
    const dataset = datasetUri(ctx);
    await requireDataset(deps, dataset);
    return startUpload(deps, await saveUpload(ctx, await incomingUpload(deps)), { dataset, ...callerOf(ctx), nominal: listParam(ctx.query, 'nominal') });
  }));

  router.get('/dataset/:id', handle(async (ctx) => {
    const page: Paging | undefined = wantsPage(ctx.query) ? parsePaging(ctx.query, deps.config) : undefined;
    const view = await viewOf(deps, datasetUri(ctx), { compoundUris: listParam(ctx.query, 'compound_uris'), featureUris: listParam(ctx.query, 'feature_uris'), page });
    const variants: Variant[] = RDF_TYPES.map(({ type, syntax }) => ({ type, produce: () => Readable.from(rdfTextStream(datasetQuadChunks(deps, view), syntax)) }));
    const neighbours = await datasetNeighbourOutput(deps, view.dataset);
    const groups = neighbours ? [neighbourColumns(deps, view.dataset, neighbours)] : [];
    variants.push({ type: JSON_PLAIN, produce: (edge) => Readable.from(jsonTextStream(datasetQuadChunks(deps, view), { contextUrl: edge?.contextUrl ?? CONTEXT_PATH, resource: view.dataset })) });
    variants.push({ type: 'text/csv', produce: () => Readable.from(datasetCsv(deps, view, [smilesColumn(deps)], groups)) });
    variants.push({ type: 'chemical/x-mdl-sdfile', produce: () => Readable.from(datasetSdf(deps, view)) });
    variants.push({ type: 'text/uri-list', produce: () => datasetUriList(deps, view) });
    const headers = page ? pagingHeaders(ctx.href, page, view.more) : {};
    return { status: 200, headers, variants } satisfies Reply;
  }));

  router.delete('/dataset/:id', handle(async (ctx) => {
    await deleteDataset(deps, datasetUri(ctx), forceOf(ctx.query));
    return emptyReply();
  }));

  router.get('/dataset/:id/compounds', handle(async (ctx) => {
    const view = await viewOf(deps, datasetUri(ctx), { page: wantsPage(ctx.query) ? parsePaging(ctx.query, deps.config) : undefined });
    const uris = await compoundsOf(deps, view);
    return uriListReply(uris, { uriListFirst: true, quads: () => uris.map((c) => compoundTypeQuad(c)) });
  }));

  router.get('/dataset/:id/features', handle(async (ctx) => {
    const view = await viewOf(deps, datasetUri(ctx));
    return uriListReply(view.features, { quads: () => featureDefinitions(deps, view.dataset, view.features) });
  }));

  router.get('/dataset/:id/entry/:n', handle(async (ctx) => rdfReply(await entryQuads(deps, datasetUri(ctx), String(ctx.params.n)))));

  router.get('/dataset/:id/metadata', handle(async (ctx) => {
    const dataset = datasetUri(ctx);
    await requireDataset(deps, dataset);
    return rdfReply(await metadataOf(deps, dataset), { uris: [dataset] });
  }));

  router.put('/dataset/:id/metadata', handle(async (ctx) => {
    const dataset = datasetUri(ctx);
    await replaceMetadata(deps, dataset, await readRdf(ctx, dataset));
    return uriListReply([dataset], { uriListFirst: true });
  }));
  return router;
}

const compoundTypeQuad = (c: string) => DataFactory.quad(DataFactory.namedNode(c), RDFNS.type, OT.Compound);
