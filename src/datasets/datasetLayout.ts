// How a dataset lies in the store (README "Dataset graphs"). One named graph
// per dataset, named by its URI; one node per data entry with its compound, and each value
// as one direct triple from the entry, predicate = the feature URI:
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
import { NotFound } from '../errors.ts';
import { OT, RDF as RDFNS } from '../rdf/vocab.ts';
import { versionsOf, type GraphVersions } from '../store/versions.ts';
import { SizedLru } from '../util/sizedLru.ts';

const { namedNode } = DataFactory;

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
