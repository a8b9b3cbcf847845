// How a dataset lies in the store (README "Dataset graphs"), and the views a request reads
// of it (below). One named graph per dataset, named by its URI; one node per data entry
// with its compound, and each value as one direct triple from the entry, predicate = the
// feature URI:
//
//   <D> a ot:Dataset ; dc:title "…" ; ot:dataEntry <D/entry/1> ; ot:warning "row 7: …" .
//   <D/entry/1> ot:compound <C> ; <F> "0.25"^^xsd:double .
//   <F> a ot:Feature, ot:NumericFeature ; dc:title "LC50" .      (copy of the definition)
//
// The standard ot:dataEntry/ot:values/ot:FeatureValue structure is produced on output
// only. Entries and values are written first (in chunks); the ot:dataEntry links and the
// ot:Dataset type come in one final commit, so an upload is invisible until complete.
import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'n3';
import type { Deps } from '../deps.ts';
import { bound } from '../store/api.ts';
import { BadRequest, NotFound } from '../errors.ts';
import { ERR, OT, RDF as RDFNS, XSD } from '../rdf/vocab.ts';
import type { Paging as Page } from '../http/paging.ts';
import { readUriParam } from '../http/uriParam.ts';
import { versionsOf, type GraphVersions } from '../store/versions.ts';
import { SizedLru } from '../util/sizedLru.ts';

const { namedNode, literal } = DataFactory;

/**
 * Entry lists kept per store, most recently read last, up to this many entries in all:
 * every job and every download of a dataset starts by reading its whole list (on the
 * embedded store one synchronous read, about 3 ms per 1,000 entries), and several jobs
 * often read the same dataset in a row.
 */
const CACHED_ENTRIES = 250_000;

interface EntryList {
  /** The store's write counter noted before the list was read: valid while no later write touched the dataset. */
  seen: number;
  entries: RDF.NamedNode[];
}

class EntryLists {
  private readonly lists = new SizedLru<EntryList>(CACHED_ENTRIES, (list) => list.entries.length);

  constructor(private readonly versions: GraphVersions) {
    // A dataset's list goes when the dataset is written (the version check below would
    // refuse it anyway): the lists of deleted datasets, never read again, are not kept.
    versions.onWrite((graphs) => {
      if (!graphs) this.lists.clear();
      else for (const graph of graphs) this.lists.delete(graph);
    });
  }

  /** The write counter now, to note before reading a list. */
  get now(): number {
    return this.versions.current;
  }

  get(dataset: string): RDF.NamedNode[] | undefined {
    const list = this.lists.get(dataset);
    if (!list) return undefined;
    if (this.versions.of([dataset]).seq <= list.seen) return list.entries;
    this.lists.delete(dataset);
    return undefined;
  }

  put(dataset: string, list: EntryList): void {
    this.lists.set(dataset, list);
  }
}

const entryLists = new WeakMap<object, EntryLists>();

/**
 * The entry lists of `store`, when this process is its sole writer: there a write is counted
 * in the same process as it is made. Processes sharing a remote store hear of each other's
 * writes a moment later (src/store/changeFeed.ts), and a job must not start from a list that
 * misses rows another process has just written; their reads do not hold the event loop.
 */
function entryListsOf(store: Deps['store']): EntryLists | undefined {
  if (!store.capabilities.soleWriter) return undefined;
  let lists = entryLists.get(store);
  if (!lists) {
    const versions = versionsOf(store);
    if (!versions) return undefined;
    lists = new EntryLists(versions);
    entryLists.set(store, lists);
  }
  return lists;
}

export const entryUri = (dataset: string, n: number): string => `${dataset}/entry/${n}`;

export const entryNumber = (uri: string): number => Number(uri.slice(uri.lastIndexOf('/') + 1));

export async function isDataset(deps: Pick<Deps, 'store'>, dataset: string): Promise<boolean> {
  return (await deps.store.match(namedNode(dataset), RDFNS.type, OT.Dataset, dataset)).length > 0;
}

export async function requireDataset(deps: Pick<Deps, 'store'>, dataset: string): Promise<void> {
  if (!(await isDataset(deps, dataset))) throw new NotFound(`dataset ${dataset} not found`);
}

/** Linked (complete) entries of a dataset, in entry order. */
export async function entriesOf(deps: Pick<Deps, 'store'>, dataset: string): Promise<RDF.NamedNode[]> {
  const lists = entryListsOf(deps.store);
  const cached = lists?.get(dataset);
  if (cached) return cached.slice();
  // Noted before the read: a write to the dataset that ends during it makes the list stale.
  const seen = lists?.now ?? 0;
  // The sort compares entry numbers, not IRIs. (The embedded store answers this read as
  // plain terms parsed from text, not one array of 100,000 Oxigraph objects: store/embedded/store.ts.)
  const links = await deps.store.match(namedNode(dataset), OT.dataEntry, null, dataset);
  const keyed: Array<{ n: number; entry: RDF.NamedNode }> = [];
  for (const q of links) {
    const iri = q.object.value;
    keyed.push({ n: entryNumber(iri), entry: namedNode(iri) });
  }
  keyed.sort((a, b) => a.n - b.n);
  const out = new Array<RDF.NamedNode>(keyed.length);
  for (let i = 0; i < keyed.length; i++) out[i] = keyed[i]!.entry;
  lists?.put(dataset, { seen, entries: out });
  return out.slice();
}

/** Number of entry nodes written so far (including an interrupted upload's), to number new ones. */
export async function writtenEntries(deps: Pick<Deps, 'store'>, dataset: string): Promise<number> {
  const row = (await deps.store.select('dataset-entry-count', { dataset: namedNode(dataset) }))[0];
  return row ? Number(bound(row, 'n')) : 0;
}

/** Feature URIs of a dataset, in id order. */
export async function featuresOf(deps: Pick<Deps, 'store'>, dataset: string): Promise<string[]> {
  return (await deps.store.select('dataset-features', { dataset: namedNode(dataset) })).map((r) => bound(r, 'f'));
}

// Which part of a dataset a request reads: entries restricted by repeated
// compound_uris[] and features by feature_uris[] (SPEC §1 rule 8), paged by page/pagesize.
// Rows are read entry by entry from the store, so output can stream.
const COMPOUND = OT.compound.value;
const XSD_DOUBLE = XSD.double.value;

export interface DatasetView {
  dataset: string;
  entries: RDF.NamedNode[];
  features: string[];
  /** True when a page was asked for and more entries follow it. */
  more: boolean;
}

export interface ViewOptions {
  compoundUris?: readonly string[];
  featureUris?: readonly string[];
  page?: Page;
}

export async function viewOf(deps: Pick<Deps, 'store'>, dataset: string, options: ViewOptions = {}): Promise<DatasetView> {
  await requireDataset(deps, dataset);
  let features = await featuresOf(deps, dataset);
  if (options.featureUris && options.featureUris.length > 0) {
    const present = new Set(features);
    const missing = options.featureUris.filter((f) => !present.has(f));
    if (missing.length > 0) {
      throw new BadRequest(`feature_uris[] names ${missing.length === 1 ? 'a feature' : 'features'} not in dataset ${dataset}: ${missing.join(', ')}`, {
        code: ERR.FeatureNotInDataset,
      });
    }
    features = [...new Set(options.featureUris)];
  }
  let entries = await entriesOf(deps, dataset);
  if (options.compoundUris && options.compoundUris.length > 0) {
    const wanted = new Set<string>();
    for (const c of options.compoundUris) {
      // A value that is no IRI is the client's mistake (400), not a store error.
      for (const q of await deps.store.match(null, OT.compound, namedNode(readUriParam(c, 'compound_uris[]')), dataset)) wanted.add(q.subject.value);
    }
    entries = entries.filter((e) => wanted.has(e.value));
  }
  let more = false;
  if (options.page) {
    more = entries.length > options.page.offset + options.page.limit;
    entries = entries.slice(options.page.offset, options.page.offset + options.page.limit);
  }
  return { dataset, entries, features, more };
}

export interface EntryRow {
  entry: RDF.NamedNode;
  compound: string;
  /** One value per feature of the view. */
  values: Array<RDF.Literal | undefined>;
  /** The entry's links to nodes of its own (fragments of its URI: a prediction's neighbours, models/neighbours.ts). */
  nodes: RDF.Quad[];
}

/**
 * The triples of `view`'s entries, chunk by chunk, grouped by entry in view order: one
 * describe() per chunk of the size the store reads best, with as many reads ahead as it
 * gains from (StoreCapabilities).
 */
async function* entryTriples(deps: Pick<Deps, 'store'>, view: DatasetView): AsyncGenerator<{ entry: RDF.NamedNode; quads: RDF.Quad[] }> {
  const { subjectsPerRead: size, readsAhead } = deps.store.capabilities;
  const reads: Array<{ chunk: RDF.NamedNode[]; quads: Promise<RDF.Quad[]> }> = [];
  let next = 0;
  const startReads = (inFlight: number) => {
    while (reads.length < inFlight && next < view.entries.length) {
      const chunk = view.entries.slice(next, next + size);
      next += size;
      const quads = deps.store.describe(view.dataset, chunk);
      // Awaited in order below; one a stopped stream leaves behind must not go unhandled.
      quads.catch(() => undefined);
      reads.push({ chunk, quads });
    }
  };
  for (startReads(1); reads.length > 0; startReads(1)) {
    const { chunk, quads } = reads.shift()!;
    const bySubject = new Map<string, RDF.Quad[]>();
    for (const e of chunk) bySubject.set(e.value, []);
    for (const q of await quads) bySubject.get(q.subject.value)?.push(q);
    startReads(readsAhead);
    for (const entry of chunk) yield { entry, quads: bySubject.get(entry.value) ?? [] };
  }
}

/** The rows of a view, read from the store a chunk of entries at a time. */
export async function* rowsOf(deps: Pick<Deps, 'store'>, view: DatasetView): AsyncGenerator<EntryRow> {
  const column = new Map<string, number>();
  for (const [i, f] of view.features.entries()) column.set(f, i);
  for await (const { entry, quads } of entryTriples(deps, view)) {
    let compound = '';
    // Filled by a loop, not fill(): see datasetCsv in datasetOutput.ts.
    const values: Array<RDF.Literal | undefined> = [];
    for (let i = 0; i < view.features.length; i++) values.push(undefined);
    const nodes: RDF.Quad[] = [];
    const own = entry.value + '#';
    // Each term property is read once (cheap on the plain terms both stores now answer).
    for (const q of quads) {
      const p = q.predicate.value;
      if (p === COMPOUND) {
        compound = q.object.value;
        continue;
      }
      const i = column.get(p);
      const o = q.object;
      if (i === undefined) {
        if (o.termType === 'NamedNode' && o.value.startsWith(own)) nodes.push(q);
        continue;
      }
      if (o.termType === 'Literal') values[i] = literal(o.value, o.datatype.value === XSD_DOUBLE ? XSD.double : undefined);
    }
    yield { entry, compound, values, nodes };
  }
}

/** Distinct compounds of a view, in entry order. */
export async function compoundsOf(deps: Pick<Deps, 'store'>, view: DatasetView): Promise<string[]> {
  const seen = new Set<string>();
  for await (const { quads } of entryTriples(deps, view)) {
    const q = quads.find((x) => x.predicate.value === COMPOUND);
    if (q) seen.add(q.object.value);
  }
  return [...seen];
}
