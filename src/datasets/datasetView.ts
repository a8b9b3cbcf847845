// Which part of a dataset a request reads: entries restricted by repeated
// compound_uris[] and features by feature_uris[] (SPEC §1 rule 8), paged by page/pagesize.
// Rows are read entry by entry from the store, so output can stream.
import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'n3';
import type { Deps } from '../deps.ts';
import { BadRequest } from '../errors.ts';
import { ERR, OT, XSD } from '../rdf/vocab.ts';
import { entriesOf, featuresOf, requireDataset } from './datasetLayout.ts';
import type { Paging as Page } from '../http/paging.ts';
import { readUriParam } from '../http/uriParam.ts';

const { namedNode, literal } = DataFactory;
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
