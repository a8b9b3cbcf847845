// The common shape every upload format is read into: rows holding either a
// structure to parse or a compound URI, one raw value per column, and warnings for rows
// that could not be read. Nothing is dropped without a warning naming its row.
import type { FeatureSpec, FeatureType } from '../features/featureModel.ts';

export type StructureFormat = 'smiles' | 'inchi' | 'molfile' | 'cml' | 'mol2';

export interface InputRow {
  /** 1-based line (CSV) or record (SDF, RDF entry) number in the upload. */
  row: number;
  structure?: { text: string; format: StructureFormat };
  compoundUri?: string;
  /** Raw value per column; undefined where the row has none. */
  values: Array<string | undefined>;
}

export interface Column {
  title: string;
  /** The type stated by the source (RDF feature class); otherwise inferred from values. */
  type?: FeatureType;
  /** The feature as the source described it (RDF uploads), for units and sameAs. */
  spec?: Partial<FeatureSpec>;
  /** A feature of this service the source names directly: reused as is. */
  featureUri?: string;
}

export interface Warning {
  row: number;
  message: string;
}

export interface InputTable {
  columns: Column[];
  rows: InputRow[];
  warnings: Warning[];
  /** Title and description the upload carries (RDF dc:title, SDF file name...). */
  title?: string;
}

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

export const isNumeric = (v: string): boolean => NUMBER.test(v.trim());

/** Nominal when few distinct values repeat (or they read as booleans); string otherwise. */
const MAX_NOMINAL = 20;
const BOOLEAN = /^(true|false|yes|no|active|inactive)$/i;

/** Type of a column from its values: numeric when all are numbers (SPEC-free). */
export function inferType(values: Iterable<string | undefined>): FeatureType {
  let numeric = true;
  let count = 0;
  const distinct = new Set<string>();
  for (const v of values) {
    if (v === undefined || v === '') continue;
    count++;
    if (numeric && !isNumeric(v)) numeric = false;
    if (distinct.size <= MAX_NOMINAL) distinct.add(v);
  }
  if (count === 0) return 'string';
  if (numeric) return 'numeric';
  if ([...distinct].every((v) => BOOLEAN.test(v))) return 'nominal';
  return distinct.size <= MAX_NOMINAL && distinct.size < count ? 'nominal' : 'string';
}

/** The values of column `i` over all rows. */
export function* columnValues(table: InputTable, i: number): Generator<string | undefined> {
  for (const r of table.rows) yield r.values[i];
}
