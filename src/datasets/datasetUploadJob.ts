// Starting an upload: a small body is stored
// while the client waits and answers the dataset URI; a large one is first written to a
// file under DATA_DIR/uploads (so the job can run again after a restart; a graph of the
// store in the remote mode, so that a worker process reads it: tasks/sharedFiles.ts) and
// runs as a task whose result is the dataset URI.
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import type { Deps } from '../deps.ts';
import type { Upload } from '../http/body.ts';
import type { Reply } from '../http/reply.ts';
import { checkRdfNesting, checkRows, checkXmlNesting, type Limits } from '../http/limits.ts';
import { checkXmlEntities } from '../http/xmlEntities.ts';
import { RDF_TYPES, type RdfSyntax } from '../rdf/formats.ts';
import { uriOf } from '../deps.ts';
import { directReply } from '../tasks/taskReply.ts';
import type { JobContext, TaskEngine } from '../tasks/api.ts';
import { detectDelimiter, readCsv } from './csv.ts';
import { uploadKind, type UploadKind } from './readTable.ts';
import { newDatasetUri, uploadDataset, uploadDatasetFile } from './datasets.ts';
import { metadataQuads, type DatasetMeta } from './datasetWrite.ts';
import { DC } from '../rdf/vocab.ts';
import { isDataset } from './datasetLayout.ts';
import { removeShared, sharedAsLocal, writeShared } from '../tasks/sharedFiles.ts';
import { uploadBodyFile } from './uploadSweep.ts';

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

const tasksOf = (deps: Deps): TaskEngine | undefined => (deps as Deps & { tasks?: TaskEngine }).tasks;

/** Registers the upload job kind with the task engine (once per app). */
export function defineUploadJob(deps: Deps): void {
  tasksOf(deps)?.define<UploadJobParams>({
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
    await uploadDatasetFile(deps, file, { kind: params.kind, dataset: params.dataset, meta: params.meta, nominal: params.nominal, signal: ctx.signal, progress: ctx.progress });
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

/** Limits (src/http/limits.ts) checked on the text before anything is stored. */
function checkUpload(kind: UploadKind, data: Buffer, limits: Limits): void {
  const name: string = kind;
  const text = data.toString('utf8');
  if (kind === 'rdfxml' || kind === 'cml') checkXmlEntities(text, `the ${kind === 'cml' ? 'CML' : 'RDF/XML'} upload`);
  if (isRdfSyntax(name)) checkRdfNesting(text, name, limits);
  else if (kind === 'cml') checkXmlNesting(text, limits, 'the CML upload');
  else checkRows(text, name, limits);
}

const isRdfSyntax = (kind: string): kind is RdfSyntax => RDF_TYPES.some((t) => t.syntax === kind);

/** A CSV without a structure column is refused before any task starts. */
function precheck(kind: UploadKind, data: Buffer): void {
  if (kind !== 'csv' && kind !== 'tsv') return;
  const head = data.subarray(0, 64 * 1024).toString('utf8');
  const cut = head.length === data.length ? head : head.slice(0, head.lastIndexOf('\n') + 1);
  const first = cut.split(/\r?\n/).slice(0, 3).join('\n');
  readCsv(first, kind === 'tsv' ? '\t' : detectDelimiter(first));
}

const uploadTitle = (upload: Upload, kind: UploadKind, dataset: string) => `Upload of ${upload.filename ?? kind} to ${dataset}`;

export async function startUpload(deps: Deps, upload: Upload, options: { dataset?: string; owner?: string; subjectid?: string; client?: string; nominal?: string[] }): Promise<Reply> {
  const kind = uploadKind(upload.type, upload.filename);
  precheck(kind, upload.data);
  checkUpload(kind, upload.data, deps.config);
  const dataset = options.dataset ?? (await newDatasetUri(deps));
  const meta: DatasetMeta = { title: upload.form.get('title') ?? upload.filename, creator: options.owner, source: upload.filename, date: new Date().toISOString() };
  // Columns declared nominal, as form fields beside a multipart file or in the query.
  const nominal = [...(options.nominal ?? []), ...upload.form.all('nominal')];
  const tasks = tasksOf(deps);
  if (!tasks || upload.data.length <= INLINE_UPLOAD_BYTES) {
    await uploadDataset(deps, { kind, data: upload.data, dataset, meta, nominal });
    return directReply(deps, [dataset], { title: uploadTitle(upload, kind, dataset), creator: options.dataset ?? uriOf(deps.config, '/dataset'), owner: options.owner });
  }
  const file = uploadBodyFile(dataset, kind);
  await writeShared(deps, file, upload.data);
  // The new dataset's graph is created now (with the date its metadata will carry), so its
  // id stays taken across a restart while the job waits; it is invisible until complete.
  if (!options.dataset) await deps.store.addToGraph(dataset, metadataQuads(dataset, meta).filter((q) => q.predicate.equals(DC.date)));
  let task;
  try {
    task = await tasks.submit<UploadJobParams>(UPLOAD_JOB, { dataset, kind, file, meta, nominal }, {
      title: uploadTitle(upload, kind, dataset),
      creator: dataset,
      owner: options.owner,
      subjectid: options.subjectid,
      client: options.client,
    });
  } catch (e) {
    // Refused (queue full or away, quota): nothing of the upload stays, neither the id nor the file.
    await removeShared(deps, file);
    if (!options.dataset) await deps.store.dropGraph(dataset);
    throw e;
  }
  return tasks.reply(task);
}
