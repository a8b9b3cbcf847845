// The dataset resource: algorithm outputs, list, delete (uploads: datasetUploadJob.ts,
// metadata edits: datasetMetadata.ts). Layout and reads are in datasetLayout.ts.
import type { Deps } from '../deps.ts';
import { requireDataset } from './datasetLayout.ts';
import { numberLiteral, stringLiteral, writeEntries, type EntrySource } from './datasetWrite.ts';
import { readFeatures } from '../features/features.ts';
import { mintUri } from '../ids/mint.ts';
import { bound } from '../store/api.ts';
import { datasetReferrers, refuseIfReferenced } from '../integrity/referrers.ts';
import type { Paging as Page } from '../http/paging.ts';
import { readablePage } from '../auth/readAccess.ts';

/** Rows of cells, read by position: an array, or rows made as they are asked for. */
export interface Rows {
  readonly length: number;
  at(i: number): ReadonlyArray<number | string | null | undefined> | undefined;
}

export const newDatasetUri = (deps: Deps): Promise<string> => mintUri(deps, 'dataset');

export interface NewDataset {
  title: string;
  /** URI of the algorithm or model that made it (dc:source). */
  source?: string;
  creator?: string;
  compounds: readonly string[];
  /** Feature URIs (see ensureFeature); values.at(i)[j] is compound i's value of feature j. */
  features: readonly string[];
  /** An array of rows, or rows made on demand (each asked for once, in order). */
  values: Rows;
  warnings?: readonly string[];
}

/** Stores an algorithm's output dataset; answers its URI. */
export async function createDataset(deps: Deps, input: NewDataset): Promise<string> {
  const dataset = await newDatasetUri(deps);
  const numeric = (await readFeatures(deps, input.features)).map((f) => f?.type === 'numeric');
  const cell = (v: number | string | null | undefined, j: number) => {
    if (v === undefined || v === null || (typeof v === 'number' && !Number.isFinite(v))) return undefined;
    return numeric[j] && typeof v === 'number' ? numberLiteral(v) : numeric[j] && !Number.isNaN(Number(v)) ? numberLiteral(Number(v)) : stringLiteral(String(v));
  };
  // Each entry's literals are made as it is written, a chunk at a time (datasetWrite.ts),
  // never the whole result's at once.
  const entries: EntrySource = {
    length: input.compounds.length,
    at: (i) => {
      const row = input.values.at(i);
      return { compound: input.compounds[i]!, values: input.features.map((_, j) => cell(row?.[j], j)) }; // i < length
    },
  };
  await writeEntries(deps, { dataset, features: [...input.features], entries, warnings: [...(input.warnings ?? [])], meta: { title: input.title, source: input.source, creator: input.creator } });
  return dataset;
}

/** One page of complete datasets; `keep` filters out those the caller may not read (readAccess.ts). */
export async function listDatasets(deps: Deps, page: Page, keep?: (uri: string) => Promise<boolean>): Promise<{ uris: string[]; more: boolean }> {
  return readablePage(page, async (limit, offset) => (await deps.store.select('dataset-list', { limit: { raw: limit }, offset: { raw: offset } })).map((r) => bound(r, 'd')), keep);
}

/**
 * DELETE /dataset/{id}: the dataset graph goes; its compounds and features stay. 409 while
 * models name it as their training dataset, unless forced (docs/integrity.md).
 */
export async function deleteDataset(deps: Deps, dataset: string, force = false): Promise<void> {
  await requireDataset(deps, dataset);
  refuseIfReferenced(dataset, 'delete', await datasetReferrers(deps, dataset), force);
  await deps.store.dropGraph(dataset);
}

