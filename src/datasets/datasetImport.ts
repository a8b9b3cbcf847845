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
import { EntryWriter, numberLiteral, stringLiteral, type DatasetMeta } from './datasetWrite.ts';
import { isDataset } from './datasetLayout.ts';

export interface ImportOptions {
  dataset: string;
  meta: DatasetMeta;
  signal?: AbortSignal;
  progress?: (percent: number) => void;
  /**
   * Write a new dataset's entries while its structures are parsed, rather than after: for
   * an upload whose failure drops the dataset's graph (a task's; datasetUploadJob.ts).
   */
  streamEntries?: boolean;
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
  // A new dataset's entries are written while the structures after them are parsed: until
  // the final commit links them nothing of it is visible, and a failed upload drops its
  // graph (datasetUploadJob.ts). Rows added to an existing dataset are written once every
  // row has its compound, so that a refused upload leaves nothing in it.
  const stream = options.streamEntries === true && !(await isDataset(deps, dataset));
  const rows = new RowEntries(deps, table, options, warnings, stream);
  try {
    const compounds = await resolveCompounds(deps, table.rows, options.signal, (p: number) => options.progress?.(p * (stream ? 0.95 : 0.5)), stream ? (upTo, so) => rows.take(upTo, so) : undefined);
    // No row with a compound: nothing was written (the entries' features are made at the first).
    if (!compounds.some((c) => typeof c === 'string')) refuseEmpty(table, compounds, warnings);
    await rows.take(table.rows.length, compounds);
    // The rows are let go before the links are written.
    table.rows = [];
    const texts = warnings.sort((a, b) => a.row - b.row).map(warningText);
    const added = await rows.finish(texts);
    return { entries: added, warnings: texts };
  } finally {
    await rows.close();
  }
}

/**
 * The entries of an upload's rows, written in row order as their compounds become known
 * (take), each row's warnings noted on the way; the features of its columns are made when
 * the first row with a compound is taken.
 */
class RowEntries {
  private next = 0;
  private readonly firstRow = new Map<string, number>();
  private writer: EntryWriter | undefined;
  private features: string[] = [];
  private numeric: boolean[] = [];

  constructor(
    private readonly deps: Deps,
    private readonly table: InputTable,
    private readonly options: ImportOptions,
    private readonly warnings: Array<{ row: number; column?: number; message: string }>,
    /** True while the structures are still being parsed: progress is theirs then. */
    private readonly streaming: boolean,
  ) {}

  /** Writes the entries of the rows before `upTo` not yet taken (their compounds are in `compounds`). */
  async take(upTo: number, compounds: readonly RowCompound[]): Promise<void> {
    const { table, warnings } = this;
    for (; this.next < upTo; this.next++) {
      const r = this.next;
      const row = entryAt(table.rows, r, 'row');
      const compound = entryAt(compounds, r, 'row compound'); // resolveCompounds answers one per row
      if (typeof compound !== 'string') {
        warnings.push({ row: row.row, message: `${compound.error}; row skipped` });
        continue;
      }
      const seen = this.firstRow.get(compound);
      if (seen !== undefined) warnings.push({ row: row.row, message: `duplicate structure: same compound as row ${seen} (${compound}); both kept` });
      else this.firstRow.set(compound, row.row);
      const writer = this.writer ?? (await this.open());
      row.values.forEach((v, i) => {
        if (v === undefined || !this.numeric[i] || isNumeric(v)) return;
        warnings.push({ row: row.row, column: columnNumber(table, i), message: `(${JSON.stringify(entryAt(table.columns, i, 'column').title)}): value ${JSON.stringify(v)} is not a number; cell left empty` });
      });
      await writer.write({ compound, values: row.values.map((v, i) => this.literalOf(v, i)) });
      if (writer.chunkEnded && !this.streaming) this.options.progress?.(Math.min(95, 50 + (45 * (r + 1)) / table.rows.length));
    }
  }

  /** Links the entries written; 0 entries when no row had a compound. */
  async finish(warnings: readonly string[]): Promise<number> {
    const writer = this.writer ?? (await this.open());
    return writer.finish(warnings, this.options.meta);
  }

  async close(): Promise<void> {
    await this.writer?.close();
  }

  private async open(): Promise<EntryWriter> {
    const { deps, table, options } = this;
    this.features = await featuresOfTable(deps, table, options.dataset);
    this.numeric = (await readFeatures(deps, this.features)).map((f) => f?.type === 'numeric');
    this.writer = await EntryWriter.open(deps, { dataset: options.dataset, features: this.features, signal: options.signal });
    return this.writer;
  }

  private literalOf(v: string | undefined, i: number): RDF.Literal | undefined {
    if (v === undefined) return undefined;
    if (!this.numeric[i]) return stringLiteral(v);
    return isNumeric(v) ? numberLiteral(Number(v)) : undefined; // a warning says so (take)
  }
}
