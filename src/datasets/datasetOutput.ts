// A dataset view as output: the standard OpenTox structure
// (ot:Dataset → ot:dataEntry → ot:compound, ot:values → ot:FeatureValue) expanded from the
// compact stored layout chunk by chunk, plus CSV and uri-list. Everything streams.
import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'n3';
import type { Deps } from '../deps.ts';
import { OT, RDF as RDFNS } from '../rdf/vocab.ts';
import { compoundsOf, rowsOf, type DatasetView } from './datasetView.ts';
import { readFeature } from '../features/features.ts';

const { quad, namedNode, blankNode } = DataFactory;

const ROWS_PER_CHUNK = 500;

/** The dataset's own statements (metadata, warnings), without its entry links. */
export function metadataOf(deps: Deps, dataset: string): RDF.Quad[] {
  return deps.store.match(namedNode(dataset), null, null, dataset).filter((q) => !q.predicate.equals(OT.dataEntry));
}

/** Feature definitions: the feature's own graph when local, else the copy in the dataset. */
export function featureDefinitions(deps: Deps, dataset: string, features: readonly string[]): RDF.Quad[] {
  return features.flatMap((f) => {
    const own = readFeature(deps, f) ? deps.store.graph(f) : [];
    return own.length > 0 ? own : deps.store.match(namedNode(f), null, null, dataset);
  });
}

/** Quad chunks of a view: metadata and features first, then ROWS_PER_CHUNK entries at a time. */
export function* datasetQuadChunks(deps: Deps, view: DatasetView): Generator<RDF.Quad[]> {
  const d = namedNode(view.dataset);
  yield [...metadataOf(deps, view.dataset), ...featureDefinitions(deps, view.dataset, view.features)];
  const predicates = view.features.map((f) => namedNode(f));
  const compounds = new Set<string>();
  let chunk: RDF.Quad[] = [];
  let rows = 0;
  for (const row of rowsOf(deps, view)) {
    const n = row.entry.value.slice(row.entry.value.lastIndexOf('/') + 1);
    chunk.push(quad(d, OT.dataEntry, row.entry), quad(row.entry, RDFNS.type, OT.DataEntry), quad(row.entry, OT.compound, namedNode(row.compound)));
    if (!compounds.has(row.compound)) {
      compounds.add(row.compound);
      chunk.push(quad(namedNode(row.compound), RDFNS.type, OT.Compound));
    }
    row.values.forEach((v, j) => {
      if (v === undefined) return;
      const fv = blankNode(`v${n}_${j}`);
      chunk.push(quad(row.entry, OT.values, fv), quad(fv, RDFNS.type, OT.FeatureValue), quad(fv, OT.feature, predicates[j]), quad(fv, OT.value, v));
    });
    if (++rows % ROWS_PER_CHUNK === 0) {
      yield chunk;
      chunk = [];
    }
  }
  if (chunk.length > 0) yield chunk;
}

/** RFC 4180 field: quoted when it holds a comma, quote or line break. */
export const csvField = (v: string): string => (/[",\r\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

/** CSV: compound URI, then one column per feature titled by its dc:title. */
export async function* datasetCsv(deps: Deps, view: DatasetView, extraColumns: CsvExtra[] = []): AsyncGenerator<string> {
  const titles = view.features.map((f) => readFeature(deps, f)?.title ?? deps.store.match(namedNode(f), null, null, view.dataset).find((q) => q.predicate.value.endsWith('/title'))?.object.value ?? f);
  yield ['Compound', ...extraColumns.map((c) => c.title), ...titles].map(csvField).join(',') + '\r\n';
  let out = '';
  let rows = 0;
  for (const row of rowsOf(deps, view)) {
    const extra = extraColumns.map((c) => c.value(row.compound) ?? '');
    out += [row.compound, ...extra, ...row.values.map((v) => v?.value ?? '')].map(csvField).join(',') + '\r\n';
    if (++rows % ROWS_PER_CHUNK === 0) {
      yield out;
      out = '';
    }
  }
  if (out) yield out;
}

/** A further CSV column computed from the compound (e.g. its SMILES). */
export interface CsvExtra {
  title: string;
  value: (compound: string) => string | undefined;
}

/** text/uri-list: the view's distinct compounds. */
export function datasetUriList(deps: Deps, view: DatasetView): string {
  return compoundsOf(deps, view).map((c) => c + '\r\n').join('');
}
