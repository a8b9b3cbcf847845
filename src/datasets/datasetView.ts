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

export function viewOf(deps: Deps, dataset: string, options: ViewOptions = {}): DatasetView {
  requireDataset(deps, dataset);
  let features = featuresOf(deps, dataset);
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
  let entries = entriesOf(deps, dataset);
  if (options.compoundUris && options.compoundUris.length > 0) {
    const wanted = new Set<string>();
    for (const c of options.compoundUris) {
      // A value that is no IRI is the client's mistake (400), not a store error.
      for (const q of deps.store.match(null, OT.compound, namedNode(readUriParam(c, 'compound_uris[]')), dataset)) wanted.add(q.subject.value);
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
}

/** The rows of a view, read from the store one entry at a time. */
export function* rowsOf(deps: Deps, view: DatasetView): Generator<EntryRow> {
  const column = new Map(view.features.map((f, i) => [f, i]));
  for (const entry of view.entries) {
    let compound = '';
    const values = new Array<RDF.Literal | undefined>(view.features.length).fill(undefined);
    // Store terms are WASM objects: every property read crosses into WASM, so each is read once.
    for (const q of deps.store.match(entry, null, null, view.dataset)) {
      const p = q.predicate.value;
      if (p === COMPOUND) {
        compound = q.object.value;
        continue;
      }
      const i = column.get(p);
      if (i === undefined) continue;
      const o = q.object;
      if (o.termType === 'Literal') values[i] = literal(o.value, o.datatype.value === XSD_DOUBLE ? XSD.double : undefined);
    }
    yield { entry, compound, values };
  }
}

/** Distinct compounds of a view, in entry order. */
export function compoundsOf(deps: Deps, view: DatasetView): string[] {
  const seen = new Set<string>();
  for (const entry of view.entries) {
    const q = deps.store.match(entry, OT.compound, null, view.dataset)[0];
    if (q) seen.add(q.object.value);
  }
  return [...seen];
}
