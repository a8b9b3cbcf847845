// Starting an upload. The route has streamed the body to a file under DATA_DIR/uploads
// (http/body.ts saveUpload). A small one is stored while the client waits and answers the
// dataset URI; a large one keeps its file (so the job can run again after a restart; copied
// to a graph of the store in the remote mode, so that a worker process reads it:
// tasks/sharedFiles.ts) and runs as a task whose result is the dataset URI. Either way the
// job threads read the file (datasetImport.ts).
import { randomUUID } from 'node:crypto';
import { createReadStream, promises as fsp } from 'node:fs';
import path from 'node:path';
import type { Deps } from '../deps.ts';
import type { SavedUpload } from '../http/body.ts';
import type { Reply } from '../http/reply.ts';
import { uriOf } from '../deps.ts';
import { checkRdfNesting, checkRowCount, checkXmlNesting, RowCounter, type Limits } from '../http/limits.ts';
import { checkXmlEntities } from '../http/xmlEntities.ts';
import { RDF_TYPES, type RdfSyntax } from '../rdf/formats.ts';
import { directReply } from '../tasks/taskReply.ts';
import type { JobContext } from '../tasks/api.ts';
import { detectDelimiter, readCsv } from './csv.ts';
import { uploadKind, type UploadKind } from './readTable.ts';
import { type DatasetMeta, metadataQuads, newDatasetUri } from './datasets.ts';
import { importUpload } from './datasetImport.ts';
import { DC } from '../rdf/vocab.ts';
import { isDataset } from './datasetLayout.ts';
import { localPath, removeShared, sharedAsLocal, shareFile } from '../tasks/sharedFiles.ts';
import { uploadBodyFile } from './uploadSweep.ts';
import { mkdirPrivate } from '../files/privateFiles.ts';

/** Bodies up to this size are stored within the request. */
export const INLINE_UPLOAD_BYTES = 64 * 1024;

export const UPLOAD_JOB = 'dataset-upload';

interface UploadJobParams {
  dataset: string;
  kind: UploadKind;
  /** The saved body, relative to DATA_DIR (an absolute path from before files were shared). */
  file: string;
  meta: DatasetMeta;
  nominal?: string[];
}

/** Registers the upload job kind with the task engine (once per app). */
export function defineUploadJob(deps: Deps): void {
  deps.tasks.define<UploadJobParams>({
    kind: UPLOAD_JOB,
    // A re-run numbers its entries after those of the interrupted run, which stay unlinked.
    idempotent: true,
    run: (params, ctx) => runUploadJob(deps, params, ctx),
    discard: (params) => discardUpload(deps, params),
  });
}

/**
 * A cancelled upload's saved body goes at once (in the remote mode a graph of the store,
 * which no start-up sweep of a data directory reaches), and so does the new dataset it was
 * filling, invisible until complete, as after a failure. A dataset that was appended to stays.
 */
async function discardUpload(deps: Deps, params: UploadJobParams): Promise<void> {
  await removeBody(deps, params);
  if (!(await isDataset(deps, params.dataset))) await deps.store.dropGraph(params.dataset);
}

/** Removes the saved body (and, in the remote mode, the job's local copy of it). */
async function removeBody(deps: Deps, { file }: UploadJobParams): Promise<void> {
  if (path.isAbsolute(file)) await fsp.rm(file, { force: true });
  else await removeShared(deps, file);
}

async function runUploadJob(deps: Deps, params: UploadJobParams, ctx: JobContext): Promise<string> {
  const appending = await isDataset(deps, params.dataset);
  const file = path.isAbsolute(params.file) ? params.file : await sharedAsLocal(deps, params.file);
  try {
    // Its task drops a new dataset's graph when it fails (below), so entries stream.
    await importUpload(deps, file, params.kind, { dataset: params.dataset, meta: params.meta, nominal: params.nominal, signal: ctx.signal, progress: ctx.progress, streamEntries: true });
  } catch (e) {
    // A failed upload leaves nothing behind: the new dataset's graph (its reserved id and
    // any entries written) and the saved body go. An aborted run is kept for recovery.
    if (!ctx.signal.aborted) {
      if (!appending) await deps.store.dropGraph(params.dataset);
      await removeBody(deps, params);
    }
    throw e;
  }
  await removeBody(deps, params);
  return params.dataset;
}

/** The first bytes of a saved upload, as text, and whether they are the whole of it. */
interface Head { text: string; whole: boolean }

const headOf = (upload: SavedUpload): Head => ({ text: upload.head.toString('utf8'), whole: upload.size <= upload.head.length });

/**
 * Limits (src/http/limits.ts) checked on the text before anything is stored or queued, so
 * that a refusal is an answer at once, not a failed task. A table's rows are counted as
 * the file is read, a chunk at a time; RDF and XML bodies are read whole, as their readers
 * need them anyway. A small upload is checked on its head, read once.
 */
async function checkUpload(kind: UploadKind, file: string, limits: Limits, head: Head): Promise<void> {
  const name: string = kind;
  const rdf = isRdfSyntax(name);
  if (rdf || kind === 'rdfxml' || kind === 'cml') {
    const text = head.whole ? head.text : await fsp.readFile(file, 'utf8');
    if (kind === 'rdfxml' || kind === 'cml') checkXmlEntities(text, `the ${kind === 'cml' ? 'CML' : 'RDF/XML'} upload`);
    if (rdf) checkRdfNesting(text, name, limits);
    else checkXmlNesting(text, limits, 'the CML upload');
    return;
  }
  const rows = new RowCounter(name);
  if (!rows.counts || limits.maxDatasetRows <= 0) return;
  if (head.whole) rows.add(head.text);
  else for await (const chunk of createReadStream(file, { encoding: 'utf8', highWaterMark: 1 << 20 })) rows.add(chunk as string);
  checkRowCount(rows.end(), limits);
}

const isRdfSyntax = (kind: string): kind is RdfSyntax => RDF_TYPES.some((t) => t.syntax === kind);

/** A CSV without a structure column is refused before any task starts (its first lines read). */
function precheck(kind: UploadKind, head: Head): void {
  if (kind !== 'csv' && kind !== 'tsv') return;
  const cut = head.whole ? head.text : head.text.slice(0, head.text.lastIndexOf('\n') + 1);
  const first = cut.split(/\r?\n/).slice(0, 3).join('\n');
  readCsv(first, kind === 'tsv' ? '\t' : detectDelimiter(first));
}

/** Where saveUpload writes a body as it arrives, before its kind and dataset are known. */
export async function incomingUpload(deps: Deps): Promise<string> {
  const dir = path.join(deps.config.dataDir, 'uploads');
  await mkdirPrivate(dir);
  return path.join(dir, `incoming-${randomUUID()}`);
}

const uploadTitle = (upload: SavedUpload, kind: UploadKind, dataset: string) => `Upload of ${upload.filename ?? kind} to ${dataset}`;

/** Stores or queues the saved `upload`, whose file it takes: it is removed when no task needs it. */
export async function startUpload(deps: Deps, upload: SavedUpload, options: { dataset?: string; owner?: string; subjectid?: string; client?: string; nominal?: string[] }): Promise<Reply> {
  try {
    const kind = uploadKind(upload.type, upload.filename);
    const head = headOf(upload);
    precheck(kind, head);
    await checkUpload(kind, upload.file, deps.config, head);
    const dataset = options.dataset ?? (await newDatasetUri(deps));
    const meta: DatasetMeta = { title: upload.form.get('title') ?? upload.filename, creator: options.owner, source: upload.filename, date: new Date().toISOString() };
    // Columns declared nominal, as form fields beside a multipart file or in the query.
    const nominal = [...(options.nominal ?? []), ...upload.form.all('nominal')];
    if (upload.size <= INLINE_UPLOAD_BYTES) {
      await importUpload(deps, upload.file, kind, { dataset, meta, nominal, urgent: true, fresh: options.dataset === undefined });
      return directReply(deps, [dataset], { title: uploadTitle(upload, kind, dataset), creator: options.dataset ?? uriOf(deps.config, '/dataset'), owner: options.owner });
    }
    const file = uploadBodyFile(dataset, kind);
    await fsp.rename(upload.file, localPath(deps, file));
    return await submitUpload(deps, { dataset, kind, file, meta, nominal }, uploadTitle(upload, kind, dataset), options);
  } finally {
    await fsp.rm(upload.file, { force: true });
  }
}

async function submitUpload(deps: Deps, params: UploadJobParams, title: string, options: { dataset?: string; owner?: string; subjectid?: string; client?: string }): Promise<Reply> {
  const { dataset, file } = params;
  try {
    await shareFile(deps, file);
    // The new dataset's graph is created now (with the date its metadata will carry), so its
    // id stays taken across a restart while the job waits; it is invisible until complete.
    if (!options.dataset) await deps.store.addToGraph(dataset, metadataQuads(dataset, params.meta).filter((q) => q.predicate.equals(DC.date)));
    const task = await deps.tasks.submit<UploadJobParams>(UPLOAD_JOB, params, { title, creator: dataset, owner: options.owner, subjectid: options.subjectid, client: options.client });
    return deps.tasks.reply(task);
  } catch (e) {
    // Refused (queue full or away, quota): nothing of the upload stays, neither the id nor the file.
    await removeShared(deps, file);
    if (!options.dataset) await deps.store.dropGraph(dataset);
    throw e;
  }
}
