// The dataset resource: algorithm outputs, list, delete (uploads: datasetUploadJob.ts,
// metadata edits: datasetMetadata.ts; layout and reads: datasetLayout.ts), and how data
// entries are written into a dataset graph (below).
import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'n3';
import type { Deps } from '../deps.ts';
import { DC, OT, RDF as RDFNS, XSD } from '../rdf/vocab.ts';
import { bound, type WriteOp } from '../store/api.ts';
import { CommitPipeline } from '../store/commitPipeline.ts';
import { entryUri, isDataset, requireDataset, writtenEntries } from './datasetLayout.ts';
import { readFeatures, type FeatureInfo } from '../features/features.ts';
import { TYPE_CLASS } from '../features/featureModel.ts';
import { mintUri } from '../ids/mint.ts';
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
  const infos = await readFeatures(deps, input.features);
  const numeric = infos.map((f) => f?.type === 'numeric');
  const cell = (v: number | string | null | undefined, j: number) => {
    if (v === undefined || v === null || (typeof v === 'number' && !Number.isFinite(v))) return undefined;
    return numeric[j] && typeof v === 'number' ? numberLiteral(v) : numeric[j] && !Number.isNaN(Number(v)) ? numberLiteral(Number(v)) : stringLiteral(String(v));
  };
  // Each entry's literals are made as it is written, a chunk at a time (writeEntries, below),
  // never the whole result's at once.
  const entries: EntrySource = {
    length: input.compounds.length,
    at: (i) => {
      const row = input.values.at(i);
      return { compound: input.compounds[i]!, values: input.features.map((_, j) => cell(row?.[j], j)) }; // i < length
    },
  };
  // A URI of its own, never written again: links go with the entries, so no commit is as large as the dataset.
  await writeEntries(deps, { dataset, features: [...input.features], entries, warnings: [...(input.warnings ?? [])], meta: { title: input.title, source: input.source, creator: input.creator }, linking: 'withEntries', featureInfos: infos });
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

// Writes data entries into a dataset graph in the layout of datasetLayout.ts: entries and
// values in chunks of about the store's quadsPerCommit triples (the embedded store applies a
// commit synchronously, so small chunks keep the event loop answering other clients while a
// job writes its result; at most MAX_CHUNK entries), then one final commit that links them
// (or, for a job's new dataset, what links the chunks did not carry: Linking) and makes the
// dataset visible. As many chunks are in flight at once as the store's
// writesInFlight (in the embedded store they share the journal's fsyncs, commitPipeline.ts).
const { quad, namedNode, literal } = DataFactory;

/** Entries per commit at most, however many triples the store takes in one. */
const MAX_CHUNK = 2_000;

/** Entries per commit for rows of `features` values (and the compound link), in commits of `quads` triples. */
const entriesPerChunk = (quads: number, features: number): number => Math.max(1, Math.min(MAX_CHUNK, Math.floor(quads / (features + 1))));

export interface EntryData {
  compound: string;
  /** One value per feature of the plan, undefined where missing. */
  values: Array<RDF.Literal | undefined>;
}

export interface DatasetMeta {
  title?: string;
  creator?: string;
  source?: string;
  description?: string;
  /** xsd:dateTime of creation; now when absent. */
  date?: string;
}

/**
 * The entries to write, each read once, in order: an array, or entries made on demand so
 * that a large upload never holds every value as a literal at once (datasetImport.ts).
 */
export interface EntrySource {
  readonly length: number;
  at(i: number): EntryData | undefined;
}

export interface WritePlan {
  dataset: string;
  features: string[];
  entries: EntrySource;
  warnings: string[];
  /** Metadata of a new dataset; ignored when appending to an existing one. */
  meta: DatasetMeta;
  signal?: AbortSignal;
  progress?: (percent: number) => void;
  /** Entries per commit (default: about the store's quadsPerCommit triples). */
  chunkSize?: number;
  /** Where the links go (default atEnd). */
  linking?: Linking;
  /** The features' definitions when the caller read them already (one per feature); else read at finish. */
  featureInfos?: ReadonlyArray<FeatureInfo | undefined>;
  /** A dataset URI minted for this write: nothing is stored under it yet (nothing is read to tell). */
  fresh?: boolean;
  /** Written in the final commit with the links: the new features the entries use (planFeatures). */
  alsoCommit?: readonly WriteOp[];
}

/**
 * How an EntryWriter links its entries to a new dataset. `atEnd`: all in the final commit,
 * so entries a writer that was stopped and started again (an upload resumed after a restart)
 * wrote before are never linked. `withEntries`: each in the chunk of its entry, for a writer
 * that is never resumed into the same dataset (a job's result gets a new URI each run): the
 * final commit is then small, and the dataset is still invisible until it types the dataset
 * (datasetLayout.ts isDataset). Appending to a dataset always links at the end.
 */
export type Linking = 'atEnd' | 'withEntries';

export const numberLiteral = (n: number): RDF.Literal => literal(String(n), XSD.double);
export const stringLiteral = (s: string): RDF.Literal => literal(s);

/** Definitions of the plan's features copied into the dataset graph (type and title). */
function featureCopies(features: readonly string[], infos: ReadonlyArray<FeatureInfo | undefined>): RDF.Quad[] {
  return features.flatMap((uri, i) => {
    const info = infos[i];
    const s = namedNode(uri);
    if (!info) return [quad(s, RDFNS.type, OT.Feature)];
    return [quad(s, RDFNS.type, OT.Feature), quad(s, RDFNS.type, TYPE_CLASS[info.type]), quad(s, DC.title, literal(info.title))];
  });
}

/** Writes the plan; returns the number of entries added. */
export async function writeEntries(deps: Deps, plan: WritePlan): Promise<number> {
  const writer = await EntryWriter.open(deps, plan, plan.linking);
  try {
    for (let i = 0; i < plan.entries.length; i++) {
      await writer.write(plan.entries.at(i)!); // i < length
      if (writer.chunkEnded) plan.progress?.(Math.min(95, 50 + (45 * (i + 1)) / plan.entries.length));
    }
    // The last chunk, when not full, is committed by finish.
    if (plan.entries.length > 0 && !writer.chunkEnded) plan.progress?.(95);
    return await writer.finish(plan.warnings, plan.meta);
  } finally {
    await writer.close();
  }
}

/**
 * Writes a dataset's entries as they come, in chunks, then links them (finish): an upload
 * writes each batch's entries while the next batches are parsed. Until finish, nothing is
 * linked and the dataset does not change for its readers. close() must follow, finished or
 * not: it waits for the chunks still being committed.
 */
export class EntryWriter {
  private readonly predicates: RDF.NamedNode[];
  /** Links still to be committed by finish. */
  private readonly links: RDF.Quad[] = [];
  private count = 0;
  private chunk: RDF.Quad[] = [];
  private inChunk = 0;
  private readonly pipeline: CommitPipeline;
  /** True when the last write() committed a chunk. */
  chunkEnded = false;

  private constructor(
    private readonly deps: Deps,
    private readonly plan: Pick<WritePlan, 'dataset' | 'features' | 'signal' | 'featureInfos' | 'alsoCommit'>,
    private readonly append: boolean,
    private readonly first: number,
    private readonly size: number,
    private readonly linkWithEntries: boolean,
  ) {
    this.predicates = plan.features.map((f) => namedNode(f));
    this.pipeline = new CommitPipeline(deps.store.capabilities.writesInFlight);
  }

  static async open(deps: Deps, plan: Pick<WritePlan, 'dataset' | 'features' | 'signal' | 'chunkSize' | 'featureInfos' | 'fresh' | 'alsoCommit'>, linking: Linking = 'atEnd'): Promise<EntryWriter> {
    const [append, written] = plan.fresh ? [false, 0] : await Promise.all([isDataset(deps, plan.dataset), writtenEntries(deps, plan.dataset)]);
    const withEntries = linking === 'withEntries' && !append;
    const first = written + 1;
    // A linked entry has one triple more: its link.
    const size = plan.chunkSize ?? entriesPerChunk(deps.store.capabilities.quadsPerCommit, plan.features.length + (withEntries ? 1 : 0));
    return new EntryWriter(deps, plan, append, first, size, withEntries);
  }

  /** Entries written so far. */
  get written(): number {
    return this.count;
  }

  async write(entry: EntryData): Promise<void> {
    const { dataset } = this.plan;
    const e = namedNode(entryUri(dataset, this.first + this.count));
    this.chunk.push(quad(e, OT.compound, namedNode(entry.compound)));
    entry.values.forEach((v, j) => {
      if (v !== undefined) this.chunk.push(quad(e, this.predicates[j]!, v)); // one predicate per feature, as values
    });
    this.count++;
    (this.linkWithEntries ? this.chunk : this.links).push(quad(namedNode(dataset), OT.dataEntry, e));
    this.chunkEnded = ++this.inChunk >= this.size;
    if (this.chunkEnded) await this.commitChunk();
  }

  /**
   * Commits the entries not yet committed with every link still to make (and the warnings,
   * the feature copies and, for a new dataset, its metadata) in one commit: a dataset of
   * less than a chunk lands whole at once.
   */
  async finish(warnings: readonly string[], meta: DatasetMeta): Promise<number> {
    const rest = this.chunk;
    this.chunk = [];
    this.inChunk = 0;
    await this.pipeline.drain();
    this.plan.signal?.throwIfAborted();
    const d = namedNode(this.plan.dataset);
    const final: RDF.Quad[] = [...rest, ...this.links, ...featureCopies(this.plan.features, this.plan.featureInfos ?? (await readFeatures(this.deps, this.plan.features))), ...warnings.map((w) => quad(d, OT.warning, literal(w)))];
    if (!this.append) final.push(...metadataQuads(this.plan.dataset, meta));
    const ops: WriteOp[] = [...(this.plan.alsoCommit ?? []), { op: 'add', graph: this.plan.dataset, quads: final }];
    await this.deps.store.commit(ops);
    return this.count;
  }

  /** Waits for every chunk started; never throws. */
  async close(): Promise<void> {
    await this.pipeline.idle();
  }

  private async commitChunk(): Promise<void> {
    this.plan.signal?.throwIfAborted();
    const quads = this.chunk;
    this.chunk = [];
    this.inChunk = 0;
    await this.pipeline.add(() => this.deps.store.addToGraph(this.plan.dataset, quads));
    // The loop gets a turn before the next chunk is built: a commit the pipeline takes at
    // once resolves without one, and a job's whole result would be built in one go.
    await new Promise((r) => setImmediate(r));
  }
}

export function metadataQuads(dataset: string, meta: DatasetMeta): RDF.Quad[] {
  const d = namedNode(dataset);
  const out = [quad(d, RDFNS.type, OT.Dataset), quad(d, DC.date, literal(meta.date ?? new Date().toISOString(), XSD.dateTime))];
  if (meta.title) out.push(quad(d, DC.title, literal(meta.title)));
  if (meta.creator) out.push(quad(d, DC.creator, literal(meta.creator)));
  if (meta.description) out.push(quad(d, DC.description, literal(meta.description)));
  if (meta.source) out.push(quad(d, DC.source, literal(meta.source)));
  return out;
}
