// Compounds and conformers (SPEC §4.2): thin handlers that read parameters and bodies,
// call the domain, and return representations.
import Router from '@koa/router';
import type Koa from 'koa';
import { DataFactory } from 'n3';
import type { Deps } from '../deps.ts';
import { callerOf } from '../auth/caller.ts';
import { handle } from '../http/send.ts';
import { emptyReply, uriListReply, bodyReply } from '../http/reply.ts';
import { contentType, readForm, readUpload } from '../http/body.ts';
import { BadRequest, UnsupportedMediaType } from '../errors.ts';
import { ERR, OT, RDF as RDFNS } from '../rdf/vocab.ts';
import { formatOfMediaType, INPUT_MEDIA_TYPES, MEDIA, smilesAtomCount, type ParsedStructure } from '../chem/index.ts';
import { parseInThread } from '../chem/parsePool.ts';
import { checkAtoms, checkXmlNesting, limitsOf } from '../http/limits.ts';
import { checkXmlEntities } from '../http/xmlEntities.ts';
import { imageSize, depictPng } from '../chem/depict.ts';
import { ensureCompound, compoundUri } from '../compounds/compounds.ts';
import { catchUpCompounds, compoundIndex, knowCompound } from '../compounds/compoundIndex.ts';
import { compoundRecord, conformerRecord, conformerRecords, defaultMolfile, numberOf, type CompoundRecord } from '../compounds/compoundRecords.ts';
import { compoundRepresentation } from '../compounds/compoundQuads.ts';
import { deleteCompound, replaceCompound } from '../compounds/compoundUpdates.ts';
import { forceOf } from '../integrity/referrers.ts';
import { addConformer, conformerRepresentation, deleteConformers, replaceConformer } from '../compounds/conformers.ts';
import { generateCount, submitGeneration, threeDMolfiles } from '../compounds/conformerGeneration.ts';
import { readStructureFile } from '../compounds/compoundFiles.ts';
import { structureReply, structuresReply } from './compoundReplies.ts';
import { fetchPage, pagingHeaders, parsePaging } from '../http/paging.ts';
import type { StructureRecord } from '../chem/write.ts';

const { quad, namedNode } = DataFactory;

/**
 * The structure in the request body, by Content-Type (or a multipart file part), parsed in
 * the parser's threads (parsePool.ts). A compound keeps a structure file only when the
 * input carried coordinates (a drawing from SMILES is made when asked for), so its molfile
 * is written only then. A compound's search fingerprints are computed in the same parse, so
 * the search index takes it as it is stored.
 */
async function readStructure(ctx: Koa.Context, use: 'compound' | 'conformer'): Promise<ParsedStructure> {
  const upload = await readUpload(ctx);
  const format = formatOfMediaType(upload.type);
  if (!format) throw new UnsupportedMediaType(upload.type, INPUT_MEDIA_TYPES, { code: ERR.UnsupportedFormat });
  const text = upload.data.toString('utf8');
  const limits = limitsOf(ctx);
  if (format === 'cml' || format === 'cdxml') {
    // XML bounds before the parse threads see it (src/http/xmlEntities.ts, MAX_NESTING).
    const what = `the ${format === 'cml' ? 'CML' : 'CDXML'} body`;
    checkXmlEntities(text, what);
    if (limits) checkXmlNesting(text, limits, what);
  }
  const parsed = await parseInThread(text, format, use === 'compound' ? { molfile: 'withCoordinates', fingerprints: true } : {});
  if (limits) checkAtoms(smilesAtomCount(parsed.smiles), limits);
  return parsed;
}

const size = (ctx: Koa.Context) => ({ w: imageSize(ctx.query.w, 'w'), h: imageSize(ctx.query.h, 'h') });

/** One 3D molfile of compound `id` (threeDMolfiles answers at least one or throws 400). */
async function firstThreeD(deps: Deps, id: number): Promise<string> {
  return (await threeDMolfiles(deps, id, 1, { urgent: true }))[0]!;
}

function record(compound: CompoundRecord, molfile: string, title: string): StructureRecord {
  return { ...compound, molfile, title };
}

export function compoundRouter(deps: Deps): Router {
  const router = new Router();
  const idOf = (ctx: Koa.Context) => numberOf(ctx.params.id, 'compound');
  // A compound another process created (remote store) is read into the index before it is answered.
  router.use('/compound/:id', async (ctx, next) => {
    const id = Number(ctx.params.id);
    if (Number.isInteger(id) && id > 0) await knowCompound(deps, id);
    await next();
  });

  router.get('/compound', handle(async (ctx) => {
    await catchUpCompounds(deps);
    const ids = compoundIndex(deps).ids();
    const paging = parsePaging(ctx.query, deps.config);
    const page = await fetchPage(paging, (limit, offset) => ids.slice(offset, offset + limit));
    const uris = page.items.map((id) => compoundUri(deps, id));
    const headers = pagingHeaders(deps.config.baseUrl + ctx.url, paging, page.hasMore, ids.length);
    return uriListReply(uris, { headers, quads: () => uris.map((u) => quad(namedNode(u), RDFNS.type, OT.Compound)) });
  }));

  router.post('/compound', handle(async (ctx) => {
    const { uri } = await ensureCompound(deps, await readStructure(ctx, 'compound'), ctx.state.user as string | undefined);
    return uriListReply([uri], { uriListFirst: true });
  }));

  router.get('/compound/:id', handle(async (ctx) => {
    const compound = compoundRecord(deps, idOf(ctx));
    return structureReply(
      { record: { ...compound, title: compound.uri }, molfile: () => defaultMolfile(deps, compound), threeD: () => firstThreeD(deps, compound.id) },
      compound.uri,
      () => compoundRepresentation(deps, compound.uri, compound),
      size(ctx),
      // Its graph and its conformers' (below it): the default structure is the first conformer.
      [compound.uri],
    );
  }));

  router.get('/compound/:id/image', handle(async (ctx) => {
    const compound = compoundRecord(deps, idOf(ctx));
    const molfile = await defaultMolfile(deps, compound);
    const { w, h } = size(ctx);
    return bodyReply(MEDIA.png, () => depictPng(molfile, w, h));
  }));

  router.put('/compound/:id', handle(async (ctx) => {
    const id = idOf(ctx);
    compoundRecord(deps, id);
    const uri = await replaceCompound(deps, id, await readStructure(ctx, 'compound'), ctx.state.user as string | undefined);
    return uriListReply([uri], { uriListFirst: true });
  }));

  router.delete('/compound/:id', handle(async (ctx) => {
    await deleteCompound(deps, idOf(ctx), forceOf(ctx.query));
    return emptyReply();
  }));

  // HEAD answers the conformer URIs as Link headers and their count (a HEAD reply has no body).
  router.get('/compound/:id/conformer', handle(async (ctx) => {
    const compound = compoundRecord(deps, idOf(ctx));
    const conformers = await conformerRecords(deps, compound);
    const uris = conformers.map((c) => c.uri);
    const headers: Record<string, string> = { 'X-Total-Count': String(uris.length) };
    if (uris.length) headers.Link = uris.map((u) => `<${u}>; rel="item"`).join(', ');
    if (ctx.method === 'HEAD') return emptyReply({ headers });
    const records = await Promise.all(conformers.map(async (c) => record(compound, await readStructureFile(deps, c.file), c.uri)));
    return structuresReply(records, uris, () => conformers.flatMap((c) => conformerRepresentation(compound, c.number)), headers);
  }));

  router.post('/compound/:id/conformer', handle(async (ctx) => {
    const id = idOf(ctx);
    compoundRecord(deps, id);
    const type = contentType(ctx);
    if (type === 'application/x-www-form-urlencoded' || (type === '' && ctx.query.generate !== undefined)) {
      const form = await readForm(ctx);
      const raw = form.get('generate') ?? (typeof ctx.query.generate === 'string' ? ctx.query.generate : undefined);
      if (raw === undefined) throw new BadRequest('form without "generate": post generate=N (1-20) or a structure', { code: ERR.MissingParameter });
      // SPEC §4.3: a long job answers with a task (200 with the result within the sync window).
      return deps.tasks.reply(await submitGeneration(deps, id, generateCount(raw), callerOf(ctx)));
    }
    return uriListReply([await addConformer(deps, id, await readStructure(ctx, 'conformer'))], { uriListFirst: true });
  }));

  router.delete('/compound/:id/conformer', handle(async (ctx) => {
    await deleteConformers(deps, idOf(ctx));
    return emptyReply();
  }));

  router.get('/compound/:id/conformer/:n', handle(async (ctx) => {
    const compound = compoundRecord(deps, idOf(ctx));
    const c = await conformerRecord(deps, compound, numberOf(ctx.params.n, 'conformer'));
    const threeD = () => firstThreeD(deps, compound.id);
    const molfile = () => readStructureFile(deps, c.file);
    return structureReply({ record: { ...compound, title: c.uri }, molfile, threeD }, c.uri, () => [
      ...conformerRepresentation(compound, c.number),
      ...compoundRepresentation(deps, compound.uri, compound),
    ], size(ctx), [compound.uri]);
  }));

  router.get('/compound/:id/conformer/:n/image', handle(async (ctx) => {
    const compound = compoundRecord(deps, idOf(ctx));
    const c = await conformerRecord(deps, compound, numberOf(ctx.params.n, 'conformer'));
    const molfile = await readStructureFile(deps, c.file);
    const { w, h } = size(ctx);
    return bodyReply(MEDIA.png, () => depictPng(molfile, w, h));
  }));

  router.put('/compound/:id/conformer/:n', handle(async (ctx) => {
    const id = idOf(ctx);
    const n = numberOf(ctx.params.n, 'conformer');
    await conformerRecord(deps, compoundRecord(deps, id), n);
    return uriListReply([await replaceConformer(deps, id, n, await readStructure(ctx, 'conformer'))], { uriListFirst: true });
  }));

  router.delete('/compound/:id/conformer/:n', handle(async (ctx) => {
    await deleteConformers(deps, idOf(ctx), numberOf(ctx.params.n, 'conformer'));
    return emptyReply();
  }));

  return router;
}


