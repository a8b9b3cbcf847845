// The in-memory form of a dataset that algorithms read and write: rows are compounds,
// columns are features. Algorithms are pure functions over tables; src/algorithms/io.ts
// turns tables into dataset, feature and model resources.

import { InternalError } from '../errors.ts';

export type Cell = number | string | null;

export interface Column {
  /** Feature URI; empty for a column an algorithm creates (the applier mints it). */
  uri: string;
  title: string;
  numeric: boolean;
  units?: string;
  /** owl:sameAs of the feature, e.g. a Blue Obelisk descriptor entry. */
  sameAs?: string;
  /** Free text, e.g. the SMARTS of a mined fragment. */
  description?: string;
  /** An ot:NominalFeature: its values are classes, whatever they look like (SPEC §2.2). */
  nominal?: boolean;
  /** ot:acceptValue of a nominal feature. */
  acceptValues?: string[];
  /** ot:hasSource: the algorithm (or dataset, model) that produced the feature. */
  source?: string;
}

export interface Table {
  datasetUri: string;
  /** Compound URI of each row. */
  compounds: string[];
  /** SMILES of each row ('' when the compound has no structure). */
  smiles: string[];
  columns: Column[];
  /** values[row][column]. */
  values: Cell[][];
}

export function columnIndex(table: Table, featureUri: string): number {
  return table.columns.findIndex((c) => c.uri === featureUri);
}

/** Numeric value of a cell, or NaN. Booleans written as text count as 1/0. */
export function numberOf(cell: Cell): number {
  if (cell === null) return NaN;
  if (typeof cell === 'number') return cell;
  const t = cell.trim().toLowerCase();
  if (t === 'true' || t === 'active' || t === 'yes') return 1;
  if (t === 'false' || t === 'inactive' || t === 'no') return 0;
  return t === '' ? NaN : Number(t);
}

/**
 * Entry i of a list whose positions the caller took from the table or result itself (a
 * row, a column, one URI per requested feature): a missing one is a broken invariant.
 */
export function entryAt<T>(list: readonly T[], i: number, what: string): T {
  const v = list[i];
  if (v === undefined) throw new InternalError(`${what} ${i} missing: only ${list.length}`);
  return v;
}

/** A table with the same columns and only the rows at `keep`. */
export function selectRows(table: Table, keep: readonly number[]): Table {
  return {
    ...table,
    compounds: keep.map((i) => entryAt(table.compounds, i, 'compound')),
    smiles: keep.map((i) => entryAt(table.smiles, i, 'SMILES')),
    values: keep.map((i) => entryAt(table.values, i, 'row')),
  };
}

/** Numeric columns (feature type numeric) other than `except` that hold at least one number. */
export function numericColumns(table: Table, except: readonly number[] = []): number[] {
  const out: number[] = [];
  table.columns.forEach((c, j) => {
    if (except.includes(j) || !c.numeric) return;
    if (table.values.some((r) => Number.isFinite(numberOf(entryAt(r, j, 'cell'))))) out.push(j);
  });
  return out;
}
