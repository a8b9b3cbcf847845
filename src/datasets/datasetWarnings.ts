// A dataset's warnings where people look: the ot:warning literals an upload (or a job)
// stored, as a resource of their own (GET /dataset/{id}/warnings: RDF, text/csv,
// text/plain), and summed up in the dataset's metadata (rows dropped, cells emptied, a link
// to that resource), so the answer of an upload says what it did not keep.
import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'n3';
import type { Deps } from '../deps.ts';
import { OT, XSD, type OwnTerms } from '../rdf/vocab.ts';
import { csvField } from '../rdf/csvCell.ts';
import { requireDataset } from './datasetLayout.ts';

const { quad, namedNode, literal } = DataFactory;

export interface Warning {
  row?: number;
  column?: number;
  message: string;
}

export const warningsUri = (dataset: string): string => `${dataset}/warnings`;

/** A stored warning read back: "row 7: …" or "row 7, column 3 (…)…" as written by datasetImport.ts. */
export function parseWarning(text: string): Warning {
  const m = /^row (\d+)(?:, column (\d+))?:? ?([^]*)$/.exec(text);
  if (!m) return { message: text };
  return { row: Number(m[1]), column: m[2] === undefined ? undefined : Number(m[2]), message: m[3]! };
}

/** Rows not stored and cells stored empty, from the warnings' own words. */
export function warningCounts(texts: readonly string[]): { droppedRows: number; emptiedCells: number } {
  let droppedRows = 0;
  let emptiedCells = 0;
  for (const t of texts) {
    if (/;\s*(row |record )?skipped$/.test(t)) droppedRows++;
    else if (/cell left empty$/.test(t)) emptiedCells++;
  }
  return { droppedRows, emptiedCells };
}

/** The ot:warning literals of a dataset's own statements, in row order. */
export function warningsIn(dataset: string, quads: readonly RDF.Quad[]): string[] {
  const texts = quads.filter((q) => q.subject.value === dataset && q.predicate.equals(OT.warning)).map((q) => q.object.value);
  return texts.sort((a, b) => (parseWarning(a).row ?? Infinity) - (parseWarning(b).row ?? Infinity) || (a < b ? -1 : a > b ? 1 : 0));
}

export async function readWarnings(deps: Pick<Deps, 'store'>, dataset: string): Promise<string[]> {
  await requireDataset(deps, dataset);
  return warningsIn(dataset, await deps.store.match(namedNode(dataset), OT.warning, null, dataset));
}

/** What the metadata adds for a dataset with warnings: the counts and the link (none without warnings). */
export function warningSummaryQuads(own: OwnTerms, dataset: string, texts: readonly string[]): RDF.Quad[] {
  if (texts.length === 0) return [];
  const d = namedNode(dataset);
  const { droppedRows, emptiedCells } = warningCounts(texts);
  return [
    quad(d, own.warnings, namedNode(warningsUri(dataset))),
    quad(d, own.droppedRows, literal(String(droppedRows), XSD.integer)),
    quad(d, own.emptiedCells, literal(String(emptiedCells), XSD.integer)),
  ];
}

export function warningsCsv(texts: readonly string[]): string {
  return ['row,column,message', ...texts.map((t) => {
    const w = parseWarning(t);
    return [w.row ?? '', w.column ?? '', csvField(w.message)].join(',');
  })].join('\r\n') + '\r\n';
}

export const warningsText = (texts: readonly string[]): string => texts.map((t) => t + '\n').join('');

/** RDF of the warnings resource: the dataset's ot:warning triples, with the summary. */
export function warningsQuads(own: OwnTerms, dataset: string, texts: readonly string[]): RDF.Quad[] {
  return [...texts.map((t) => quad(namedNode(dataset), OT.warning, literal(t))), ...warningSummaryQuads(own, dataset, texts)];
}
