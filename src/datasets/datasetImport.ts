// From an upload read into an InputTable to a stored dataset: structures
// become compounds, columns become features (reused where the source names ours), and
// every row that cannot be stored, every duplicate and every unreadable value becomes a
// warning on the dataset naming its row.
import type * as RDF from '@rdfjs/types';
import type { Deps } from '../deps.ts';
import { uriOf } from '../deps.ts';
import { isNumeric, type InputTable } from './table.ts';
import { resolveCompounds, type RowCompound } from './datasetCompounds.ts';
import { BadRequest } from '../errors.ts';
import { entryAt } from '../algorithms/table.ts';
import { ensureFeatures, readFeature, readFeatures } from '../features/features.ts';
import type { FeatureSpec } from '../features/featureModel.ts';
import { numberLiteral, stringLiteral, writeEntries, type DatasetMeta, type EntrySource } from './datasetWrite.ts';

export interface ImportOptions {
  dataset: string;
  meta: DatasetMeta;
  signal?: AbortSignal;
  progress?: (percent: number) => void;
}

export interface ImportResult {
  entries: number;
  warnings: string[];
}

async function featuresOfTable(deps: Deps, table: InputTable, dataset: string): Promise<string[]> {
  const featurePrefix = uriOf(deps.config, '/feature/');
  const specs: FeatureSpec[] = [];
  const reused: Array<string | undefined> = [];
  for (const c of table.columns) reused.push(c.featureUri?.startsWith(featurePrefix) && (await readFeature(deps, c.featureUri)) ? c.featureUri : undefined);
  table.columns.forEach((c, i) => {
    if (reused[i]) return;
    const type = c.type ?? 'string';
    const accept = type === 'nominal' ? [...new Set(table.rows.map((r) => r.values[i]).filter((v): v is string => v !== undefined))].sort() : undefined;
    specs.push({ title: c.title, type, units: c.spec?.units, sameAs: c.spec?.sameAs, source: dataset, acceptValues: accept });
  });
  const minted = await ensureFeatures(deps, specs);
  let k = 0;
  // ensureFeatures mints one feature per spec: one per column not reused, in order.
  return reused.map((u) => u ?? entryAt(minted, k++, 'minted feature'));
}

const warningText = (w: { row: number; column?: number; message: string }): string =>
  w.column === undefined ? `row ${w.row}: ${w.message}` : `row ${w.row}, column ${w.column} ${w.message}`;

/** 1-based position of feature column `i` in the upload: the CSV's structure column is not a feature. */
const columnNumber = (table: InputTable, i: number): number => table.columns[i]?.position ?? (table.keyColumn !== undefined && i >= table.keyColumn ? i + 2 : i + 1);

/**
 * An upload of which no row can be stored is refused (400) with the first row's problem,
 * rather than answered 200 with an empty dataset the client did not mean to make.
 */
function refuseEmpty(table: InputTable, compounds: ReadonlyArray<RowCompound>, warnings: Array<{ row: number; message: string }>): void {
  const problems = [...warnings];
  table.rows.forEach((row, r) => {
    const c = entryAt(compounds, r, 'row compound'); // resolveCompounds answers one per row
    if (typeof c !== 'string') problems.push({ row: row.row, message: c.error });
  });
  if (problems.length === 0) return;
  const first = problems.sort((a, b) => a.row - b.row)[0]!; // problems is not empty (checked above)
  throw new BadRequest(`no row loaded: row ${first.row}: ${first.message}`, {
    details: `${problems.length} row(s) could not be read; nothing was stored.`,
  });
}

/** Stores `table` as (or appends it to) a dataset. The table is consumed: its rows are emptied. */
export async function importTable(deps: Deps, table: InputTable, options: ImportOptions): Promise<ImportResult> {
  const { dataset } = options;
  const warnings: Array<{ row: number; column?: number; message: string }> = table.warnings.map((w) => ({ ...w }));
  const compounds = await resolveCompounds(deps, table.rows, options.signal, (p: number) => options.progress?.(p * 0.5));
  if (!compounds.some((c) => typeof c === 'string')) refuseEmpty(table, compounds, warnings);
  const features = await featuresOfTable(deps, table, dataset);
  const numeric = (await readFeatures(deps, features)).map((f) => f?.type === 'numeric');
  const firstRow = new Map<string, number>();
  // Rows to store and their compounds; their values become literals only when written, a
  // chunk at a time (a 100,000 × 20 upload would otherwise hold 2 million literals at once).
  const kept: Array<{ row: InputTable['rows'][number]; compound: string } | undefined> = [];
  table.rows.forEach((row, r) => {
    const compound = entryAt(compounds, r, 'row compound'); // resolveCompounds answers one per row
    if (typeof compound !== 'string') {
      warnings.push({ row: row.row, message: `${compound.error}; row skipped` });
      return;
    }
    const seen = firstRow.get(compound);
    if (seen !== undefined) warnings.push({ row: row.row, message: `duplicate structure: same compound as row ${seen} (${compound}); both kept` });
    else firstRow.set(compound, row.row);
    row.values.forEach((v, i) => {
      if (v === undefined || !numeric[i] || isNumeric(v)) return;
      warnings.push({ row: row.row, column: columnNumber(table, i), message: `(${JSON.stringify(entryAt(table.columns, i, 'column').title)}): value ${JSON.stringify(v)} is not a number; cell left empty` });
    });
    kept.push({ row, compound });
  });
  const literalOf = (v: string | undefined, i: number): RDF.Literal | undefined => {
    if (v === undefined) return undefined;
    if (!numeric[i]) return stringLiteral(v);
    return isNumeric(v) ? numberLiteral(Number(v)) : undefined; // a warning says so (above)
  };
  // The rows are let go as they are written: the table's own list now, each kept row once
  // writeEntries has read it (once, in order).
  table.rows = [];
  const entries: EntrySource = {
    length: kept.length,
    at: (k) => {
      const e = kept[k];
      kept[k] = undefined;
      return e && { compound: e.compound, values: e.row.values.map(literalOf) };
    },
  };
  const texts = warnings.sort((a, b) => a.row - b.row).map(warningText);
  const added = await writeEntries(deps, { dataset, features, entries, warnings: texts, meta: options.meta, signal: options.signal, progress: options.progress });
  return { entries: added, warnings: texts };
}
