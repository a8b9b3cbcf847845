// Writes data entries into a dataset graph in the layout of datasetLayout.ts: entries and
// values in chunks of about CHUNK_QUADS triples per commit in the embedded store (it applies a
// commit synchronously, so small chunks keep the event loop answering other clients while a
// job writes its result; MAX_CHUNK entries per commit in a remote one), then one final commit
// that links them and makes the dataset visible. In the embedded store a few chunks are in
// flight at once, so that they share the journal's fsyncs (commitPipeline.ts).
import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'n3';
import type { Deps } from '../deps.ts';
import { DC, OT, RDF as RDFNS, XSD } from '../rdf/vocab.ts';
import type { WriteOp } from '../store/store.ts';
import { CommitPipeline } from '../store/commitPipeline.ts';
import { entryUri, isDataset, writtenEntries } from './datasetLayout.ts';
import { readFeatures } from '../features/features.ts';
import { TYPE_CLASS } from '../features/featureModel.ts';

const { quad, namedNode, literal } = DataFactory;

/** Triples per commit: applying one holds the event loop for about 3 ms (literal values, a store of a million triples). */
const CHUNK_QUADS = 1_000;
const MAX_CHUNK = 2_000;
/**
 * Chunks committed at once in the embedded store. A remote store's commits stay one at a
 * time: each is an update request that the store runs as its own transaction.
 */
const EMBEDDED_IN_FLIGHT = 4;

/** Entries per commit for rows of `features` values (and the compound link). */
const entriesPerChunk = (features: number): number => Math.max(1, Math.min(MAX_CHUNK, Math.floor(CHUNK_QUADS / (features + 1))));

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
  /** Entries per commit (default: about CHUNK_QUADS triples). */
  chunkSize?: number;
}

export const numberLiteral = (n: number): RDF.Literal => literal(String(n), XSD.double);
export const stringLiteral = (s: string): RDF.Literal => literal(s);

/** Definitions of the plan's features copied into the dataset graph (type and title). */
async function featureCopies(deps: Deps, features: readonly string[]): Promise<RDF.Quad[]> {
  const infos = await readFeatures(deps, features);
  return features.flatMap((uri, i) => {
    const info = infos[i];
    const s = namedNode(uri);
    if (!info) return [quad(s, RDFNS.type, OT.Feature)];
    return [quad(s, RDFNS.type, OT.Feature), quad(s, RDFNS.type, TYPE_CLASS[info.type]), quad(s, DC.title, literal(info.title))];
  });
}

/** Writes the plan; returns the number of entries added. */
export async function writeEntries(deps: Deps, plan: WritePlan): Promise<number> {
  const { dataset } = plan;
  const append = await isDataset(deps, dataset);
  const first = (await writtenEntries(deps, dataset)) + 1;
  const predicates = plan.features.map((f) => namedNode(f));
  const links: RDF.Quad[] = [];
  // A remote store's commit is an HTTP request, which holds no event loop: large chunks there.
  const size = plan.chunkSize ?? (deps.store.kind === 'sparql' ? MAX_CHUNK : entriesPerChunk(plan.features.length));
  const pipeline = new CommitPipeline(deps.store.kind === 'sparql' ? 1 : EMBEDDED_IN_FLIGHT);
  try {
    for (let start = 0; start < plan.entries.length; start += size) {
      plan.signal?.throwIfAborted();
      const quads: RDF.Quad[] = [];
      for (let i = start; i < Math.min(start + size, plan.entries.length); i++) {
        const e = namedNode(entryUri(dataset, first + i));
        const { compound, values } = plan.entries.at(i)!; // i < length
        quads.push(quad(e, OT.compound, namedNode(compound)));
        values.forEach((v, j) => {
          if (v !== undefined) quads.push(quad(e, predicates[j]!, v)); // one predicate per feature, as values
        });
        links.push(quad(namedNode(dataset), OT.dataEntry, e));
      }
      await pipeline.add(() => deps.store.addToGraph(dataset, quads));
      plan.progress?.(Math.min(95, 50 + (45 * (start + size)) / plan.entries.length));
    }
    await pipeline.drain();
  } finally {
    await pipeline.idle();
  }
  plan.signal?.throwIfAborted();
  const d = namedNode(dataset);
  const final: RDF.Quad[] = [...links, ...(await featureCopies(deps, plan.features)), ...plan.warnings.map((w) => quad(d, OT.warning, literal(w)))];
  if (!append) final.push(...metadataQuads(dataset, plan.meta));
  const ops: WriteOp[] = [{ op: 'add', graph: dataset, quads: final }];
  await deps.store.commit(ops);
  return plan.entries.length;
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
