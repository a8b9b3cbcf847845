// The common shape every upload format is read into: rows holding either a
// structure to parse or a compound URI, one raw value per column, and warnings for rows
// that could not be read. Nothing is dropped without a warning naming its row.
import type { FeatureSpec, FeatureType } from '../features/featureModel.ts';
import { BadRequest } from '../errors.ts';
import { ERR } from '../rdf/vocab.ts';

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
  /** 1-based column of the upload it was read from (CSV), when it cannot be told from keyColumn. */
  position?: number;
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
  /** 0-based column of the structure in the upload (CSV), so warnings number columns as the file does. */
  keyColumn?: number;
}

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

export const isNumeric = (v: string): boolean => NUMBER.test(v.trim());

/** Nominal when few distinct values repeat (or they read as booleans); string otherwise. */
const MAX_NOMINAL = 20;
const BOOLEAN = /^(true|false|yes|no|active|inactive)$/i;

/**
 * A column stays numeric despite a few unreadable cells (a typo, "n.a."): at least two
 * numbers, and no more non-numbers than one or a tenth of the values, whichever is more.
 * Those cells are then left empty with a warning (datasetImport.ts); a column with more
 * non-numbers (censored values such as ">100") keeps them all as strings instead.
 */
export const numericDespite = (numbers: number, others: number): boolean => numbers >= 2 && others <= Math.max(1, Math.floor((numbers + others) / 10));

/** Type of a column from its values: numeric when (nearly) all are numbers. */
export function inferType(values: Iterable<string | undefined>): FeatureType {
  let numbers = 0;
  let count = 0;
  const distinct = new Set<string>();
  for (const v of values) {
    if (v === undefined || v === '') continue;
    count++;
    if (isNumeric(v)) numbers++;
    if (distinct.size <= MAX_NOMINAL) distinct.add(v);
  }
  if (count === 0) return 'string';
  if (numbers === count || numericDespite(numbers, count - numbers)) return 'numeric';
  if ([...distinct].every((v) => BOOLEAN.test(v))) return 'nominal';
  return distinct.size <= MAX_NOMINAL && distinct.size < count ? 'nominal' : 'string';
}

/**
 * Columns the client declared nominal (form or query field `nominal`, one title each): their
 * values are classes even when they read as numbers, e.g. activity coded 0/1/2 (SPEC §2.2
 * ot:NominalFeature). A title that is no column answers 400 naming it.
 */
export function declareNominal(table: InputTable, titles: readonly string[]): void {
  for (const title of titles) {
    const column = table.columns.find((c) => c.title === title);
    if (!column) {
      throw new BadRequest(`nominal=${JSON.stringify(title)} names no column of the upload; its columns are ${table.columns.map((c) => JSON.stringify(c.title)).join(', ')}`, { code: ERR.InvalidParameter });
    }
    column.type = 'nominal';
  }
}
