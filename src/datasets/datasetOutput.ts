// A dataset view as output: the standard OpenTox structure
// (ot:Dataset → ot:dataEntry → ot:compound, ot:values → ot:FeatureValue) expanded from the
// compact stored layout chunk by chunk, plus CSV and uri-list. Everything streams.
import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'n3';
import type { Deps } from '../deps.ts';
import { OT, RDF as RDFNS, ownTerms } from '../rdf/vocab.ts';
import { warningsIn, warningSummaryQuads } from './datasetWarnings.ts';
import { compoundsOf, rowsOf, type DatasetView, type EntryRow } from './datasetLayout.ts';
import { readFeature, readFeatures } from '../features/features.ts';
import { csvField } from '../rdf/csvCell.ts';

const { quad, namedNode, blankNode } = DataFactory;

const ROWS_PER_CHUNK = 500;

/**
 * The dataset's own statements (metadata, warnings), without its entry links; with
 * warnings, how many rows were dropped and cells emptied and the link to them (datasetWarnings.ts).
 */
export async function metadataOf(deps: Pick<Deps, 'store' | 'config'>, dataset: string): Promise<RDF.Quad[]> {
  const terms = ownTerms(deps.config.baseUrl);
  // The summary is computed, never stored: one a client PUT back is not doubled.
  const computed = [terms.warnings, terms.droppedRows, terms.emptiedCells];
  const own = (await deps.store.match(namedNode(dataset), null, null, dataset)).filter((q) => !q.predicate.equals(OT.dataEntry) && !computed.some((p) => p.equals(q.predicate)));
  return [...own, ...warningSummaryQuads(terms, dataset, warningsIn(dataset, own))];
}

/** The metadata of each of `datasets`, in order: the RDF of a dataset list. */
export async function datasetsMetadata(deps: Pick<Deps, 'store' | 'config'>, datasets: readonly string[]): Promise<RDF.Quad[]> {
  const out: RDF.Quad[] = [];
  for (const d of datasets) out.push(...(await metadataOf(deps, d)));
  return out;
}

/** Feature definitions: the feature's own graph when local, else the copy in the dataset. */
export async function featureDefinitions(deps: Pick<Deps, 'store'>, dataset: string, features: readonly string[]): Promise<RDF.Quad[]> {
  const out: RDF.Quad[] = [];
  for (const f of features) {
    const own = (await readFeature(deps, f)) ? await deps.store.graph(f) : [];
    out.push(...(own.length > 0 ? own : await deps.store.match(namedNode(f), null, null, dataset)));
  }
  return out;
}

/** Quad chunks of a view: metadata and features first, then ROWS_PER_CHUNK entries at a time. */
export async function* datasetQuadChunks(deps: Pick<Deps, 'store' | 'config'>, view: DatasetView): AsyncGenerator<RDF.Quad[]> {
  const d = namedNode(view.dataset);
  yield [...(await metadataOf(deps, view.dataset)), ...(await featureDefinitions(deps, view.dataset, view.features))];
  const predicates = view.features.map((f) => namedNode(f));
  const compounds = new Set<string>();
  let chunk: RDF.Quad[] = [];
  let rows = 0;
  // An entry's own nodes (fragments of its URI) travel with it: described once per chunk.
  let nodes: RDF.NamedNode[] = [];
  const withNodes = async (): Promise<RDF.Quad[]> => {
    const described = nodes.length ? await deps.store.describe(view.dataset, nodes) : [];
    nodes = [];
    return chunk.concat(described);
  };
  for await (const row of rowsOf(deps, view)) {
    const n = row.entry.value.slice(row.entry.value.lastIndexOf('/') + 1);
    chunk.push(quad(d, OT.dataEntry, row.entry), quad(row.entry, RDFNS.type, OT.DataEntry), quad(row.entry, OT.compound, namedNode(row.compound)));
    if (!compounds.has(row.compound)) {
      compounds.add(row.compound);
      chunk.push(quad(namedNode(row.compound), RDFNS.type, OT.Compound));
    }
    for (let j = 0; j < row.values.length; j++) {
      const v = row.values[j];
      if (v === undefined) continue;
      // Letters and digits only, the label RDF/XML writes as it is (rdfxml.ts nodeId); unique,
      // since j has no 'x'.
      const fv = blankNode(`v${n}x${j}`);
      chunk.push(quad(row.entry, OT.values, fv), quad(fv, RDFNS.type, OT.FeatureValue), quad(fv, OT.feature, predicates[j]!), quad(fv, OT.value, v));
    }
    for (const q of row.nodes) {
      chunk.push(q);
      nodes.push(q.object as RDF.NamedNode);
    }
    if (++rows % ROWS_PER_CHUNK === 0) {
      yield await withNodes();
      chunk = [];
    }
  }
  if (chunk.length > 0) yield await withNodes();
}

/** CSV: compound URI, the extra columns, one column per feature titled by its dc:title, then the groups. */
export async function* datasetCsv(deps: Pick<Deps, 'store'>, view: DatasetView, extraColumns: CsvExtra[] = [], groups: CsvGroup[] = []): AsyncGenerator<string> {
  const infos = await readFeatures(deps, view.features);
  const titles: string[] = [];
  for (const [i, f] of view.features.entries()) {
    titles.push(infos[i]?.title ?? (await deps.store.match(namedNode(f), null, null, view.dataset)).find((q) => q.predicate.value.endsWith('/title'))?.object.value ?? f);
  }
  yield ['Compound', ...extraColumns.map((c) => c.title), ...titles, ...groups.flatMap((g) => g.titles)].map(csvField).join(',') + '\r\n';
  let rows: EntryRow[] = [];
  const flush = async (): Promise<string> => {
    // Plain loops instead of map() and Promise.all() over the chunk. (They did not prevent
    // the V8 deoptimizer crash of Node 20 on a 100,000-row stream; what did is reading the
    // embedded store without Oxigraph's arrays of WASM terms: src/store/embedded/store.ts.)
    const compounds = new Array<string>(rows.length);
    for (let i = 0; i < rows.length; i++) compounds[i] = rows[i]!.compound;
    const extra: Array<ReadonlyArray<string | undefined>> = [];
    for (const column of extraColumns) extra.push(await column.values(compounds));
    const trailing: string[][][] = [];
    for (const group of groups) trailing.push(await group.values(rows));
    const text = csvLines(rows, extra, trailing);
    rows = [];
    return text;
  };
  for await (const row of rowsOf(deps, view)) {
    rows.push(row);
    if (rows.length === ROWS_PER_CHUNK) yield await flush();
  }
  if (rows.length > 0) yield await flush();
}

/**
 * CSV lines of a chunk of rows, built with plain loops rather than an array per row and
 * per field: this is the inner loop of a 100,000-row stream.
 */
function csvLines(rows: readonly EntryRow[], extra: ReadonlyArray<ReadonlyArray<string | undefined>>, trailing: ReadonlyArray<ReadonlyArray<readonly string[]>>): string {
  let text = '';
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    let line = csvField(row.compound);
    for (const column of extra) line += ',' + csvField(column[i] ?? '');
    for (const v of row.values) line += ',' + (v === undefined ? '' : csvField(v.value));
    for (const group of trailing) for (const v of group[i] ?? []) line += ',' + csvField(v);
    text += line + '\r\n';
  }
  return text;
}

/** A further CSV column computed from the compounds (e.g. their SMILES), a chunk of rows at a time. */
export interface CsvExtra {
  title: string;
  values: (compounds: readonly string[]) => Promise<Array<string | undefined>>;
}

/** Further CSV columns after the features, computed from a chunk of rows (e.g. a prediction's neighbours). */
export interface CsvGroup {
  titles: string[];
  /** One list of `titles.length` fields per row, in order. */
  values: (rows: readonly EntryRow[]) => Promise<string[][]>;
}

/** text/uri-list: the view's distinct compounds. */
export async function datasetUriList(deps: Pick<Deps, 'store'>, view: DatasetView): Promise<string> {
  return (await compoundsOf(deps, view)).map((c) => c + '\r\n').join('');
}
