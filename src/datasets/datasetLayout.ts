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

const { namedNode } = DataFactory;

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
  // The sort compares entry numbers, not IRIs. (The embedded store answers this read as
  // plain terms parsed from text, not one array of 100,000 Oxigraph objects: store.ts.)
  const links = await deps.store.match(namedNode(dataset), OT.dataEntry, null, dataset);
  const keyed: Array<{ n: number; entry: RDF.NamedNode }> = [];
  for (const q of links) {
    const iri = q.object.value;
    keyed.push({ n: entryNumber(iri), entry: namedNode(iri) });
  }
  keyed.sort((a, b) => a.n - b.n);
  const out = new Array<RDF.NamedNode>(keyed.length);
  for (let i = 0; i < keyed.length; i++) out[i] = keyed[i]!.entry;
  return out;
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
