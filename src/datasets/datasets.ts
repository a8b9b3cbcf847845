// The dataset resource: upload (new or append), algorithm outputs, list,
// delete, metadata. Layout and reads are in datasetLayout.ts / datasetView.ts.
import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'n3';
import type { Deps } from '../deps.ts';
import { BadRequest } from '../errors.ts';
import { DC, ERR, OT, RDF as RDFNS } from '../rdf/vocab.ts';
import { readTable, type UploadKind } from './readTable.ts';
import type { InputTable } from './table.ts';
import { requireDataset } from './datasetLayout.ts';
import { importTable, type ImportResult } from './datasetImport.ts';
import { numberLiteral, stringLiteral, writeEntries, type DatasetMeta } from './datasetWrite.ts';
import { readFeatures } from '../features/features.ts';
import { mintUri } from '../ids/mint.ts';
import type { Paging as Page } from '../http/paging.ts';

const { quad, namedNode } = DataFactory;

export interface UploadParams {
  kind: UploadKind;
  data: Buffer;
  /** The dataset to append to; a new one is minted when absent. */
  dataset: string;
  meta: DatasetMeta;
  signal?: AbortSignal;
  progress?: (percent: number) => void;
}

export const newDatasetUri = (deps: Deps): Promise<string> => mintUri(deps, 'dataset');

/** Reads an upload and stores it as (or appends it to) `params.dataset`. */
export async function uploadDataset(deps: Deps, params: UploadParams): Promise<ImportResult> {
  return importUpload(deps, await readTable(params.kind, params.data, params.dataset), params);
}

/** A large upload stored in `file`: read in a worker thread, then stored here. */
export async function uploadDatasetFile(deps: Deps, file: string, params: Omit<UploadParams, 'data'>): Promise<ImportResult> {
  const table = await deps.tasks.runInWorker<InputTable>(READER, 'readTableFile', { kind: params.kind, file, baseIri: params.dataset }, { signal: params.signal });
  return importUpload(deps, table, params);
}

const READER = new URL('./readTableWorker.ts', import.meta.url);

function importUpload(deps: Deps, table: InputTable, params: Omit<UploadParams, 'data'>): Promise<ImportResult> {
  const meta = { ...params.meta, title: params.meta.title ?? table.title };
  return importTable(deps, table, { dataset: params.dataset, meta, signal: params.signal, progress: params.progress });
}

export interface NewDataset {
  title: string;
  /** URI of the algorithm or model that made it (dc:source). */
  source?: string;
  creator?: string;
  compounds: readonly string[];
  /** Feature URIs (see ensureFeature); values[i][j] is compound i's value of feature j. */
  features: readonly string[];
  values: ReadonlyArray<ReadonlyArray<number | string | null | undefined>>;
  warnings?: readonly string[];
}

/** Stores an algorithm's output dataset; answers its URI. */
export async function createDataset(deps: Deps, input: NewDataset): Promise<string> {
  const dataset = await newDatasetUri(deps);
  const numeric = (await readFeatures(deps, input.features)).map((f) => f?.type === 'numeric');
  const entries = input.compounds.map((compound, i) => ({
    compound,
    values: input.features.map((_, j) => {
      const v = input.values[i]?.[j];
      if (v === undefined || v === null || (typeof v === 'number' && !Number.isFinite(v))) return undefined;
      return numeric[j] && typeof v === 'number' ? numberLiteral(v) : numeric[j] && !Number.isNaN(Number(v)) ? numberLiteral(Number(v)) : stringLiteral(String(v));
    }),
  }));
  await writeEntries(deps, { dataset, features: [...input.features], entries, warnings: [...(input.warnings ?? [])], meta: { title: input.title, source: input.source, creator: input.creator } });
  return dataset;
}

export async function listDatasets(deps: Deps, page: Page): Promise<{ uris: string[]; more: boolean }> {
  const rows = await deps.store.select('dataset-list', { limit: { raw: page.limit + 1 }, offset: { raw: page.offset } });
  const uris = rows.map((r) => r.d.value);
  return { uris: uris.slice(0, page.limit), more: uris.length > page.limit };
}

/** DELETE /dataset/{id}: the dataset graph goes; its compounds and features stay. */
export async function deleteDataset(deps: Deps, dataset: string): Promise<void> {
  await requireDataset(deps, dataset);
  await deps.store.dropGraph(dataset);
}

/** Metadata predicates a client may set (PUT /dataset/{id}/metadata). */
const EDITABLE = [DC.title, DC.description, DC.creator, DC.source, DC.contributor, DC.type, DC.identifier];

/** PUT /dataset/{id}/metadata: replaces the editable statements about the dataset. */
export async function replaceMetadata(deps: Deps, dataset: string, body: readonly RDF.Quad[]): Promise<void> {
  await requireDataset(deps, dataset);
  const subjects = [...new Set(body.filter((q) => q.predicate.equals(RDFNS.type) && q.object.equals(OT.Dataset)).map((q) => q.subject.value))];
  const about = body.some((q) => q.subject.value === dataset) ? dataset : subjects.length === 1 ? subjects[0] : undefined;
  if (!about) throw new BadRequest(`the RDF says nothing about ${dataset} (and holds no single ot:Dataset)`, { code: ERR.NotADatasetRepresentation });
  const d = namedNode(dataset);
  const editable = new Set(EDITABLE.map((p) => p.value));
  const added = body.filter((q) => q.subject.value === about && editable.has(q.predicate.value)).map((q) => quad(d, q.predicate as RDF.Quad_Predicate, q.object as RDF.Quad_Object));
  if (added.length === 0) throw new BadRequest(`no metadata to set: use ${EDITABLE.map((p) => p.value).join(', ')}`, { code: ERR.NotADatasetRepresentation });
  const replacedPredicates = new Set(added.map((q) => q.predicate.value));
  const removed = (await deps.store.match(d, null, null, dataset)).filter((q) => replacedPredicates.has(q.predicate.value));
  await deps.store.commit([
    { op: 'remove', graph: dataset, quads: removed },
    { op: 'add', graph: dataset, quads: added },
  ]);
}
