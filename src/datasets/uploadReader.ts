// Runs in the job threads (runInWorker(UPLOAD_READER, ...)): an upload's saved file is read
// here, not on the event loop, and each of its structures is parsed and fingerprinted here,
// so what crosses to the event loop is each row's values and its parsed structure, once.
// The first call of an upload in a thread reads the file; the table is kept for that
// upload's next batches, and let go once the thread has had no call for it in KEEP_MS.
import { readFile, stat } from 'node:fs/promises';
import { initChem, parseStructure, type ParsedStructure } from '../chem/index.ts';
import { checkCancelled } from '../tasks/cancellation.ts';
import { threadModule } from '../threads/threadModule.ts';
import { readTable, type UploadKind } from './readTable.ts';
import { declareNominal, type Column, type InputTable, type Warning } from './table.ts';

/** This module, for runInWorker. */
export const UPLOAD_READER = threadModule('./uploadReader.ts', import.meta.url);

export interface UploadInput {
  file: string;
  kind: UploadKind;
  baseIri: string;
  /** Titles of columns to read as nominal (declareNominal). */
  nominal: string[];
}

/** What the event loop needs of an upload before its rows: columns, how many rows, warnings. */
export interface UploadOutline {
  /** With, for a nominal column, its values sorted (the feature's accepted values). */
  columns: Array<Column & { accept?: string[] }>;
  rows: number;
  warnings: Warning[];
  title?: string;
  keyColumn?: number;
}

export type ParseResult = ParsedStructure | { error: string };

/** One row of the upload, its structure parsed (with fingerprints) when it has one. */
export interface UploadRow {
  row: number;
  values: Array<string | undefined>;
  compoundUri?: string;
  parsed?: ParseResult;
}

/** Rows per thread call and per compound commit: large enough to amortise both, small enough to overlap them. */
const BATCH = 250;
/** The smallest of the last batches (batchSizes). */
const MIN_BATCH = 25;

/**
 * Sizes of the batches `count` rows are cut into: BATCH while much remains, then a share of
 * what is left for each thread, so that the threads (which take the batches in order) run
 * out of work together instead of one parsing the last full batch alone.
 */
export function batchSizes(count: number, threads: number): number[] {
  const sizes: number[] = [];
  for (let left = count; left > 0;) {
    const size = Math.min(left, BATCH, Math.max(MIN_BATCH, Math.ceil(left / (2 * threads))));
    sizes.push(size);
    left -= size;
  }
  return sizes;
}

const KEEP_MS = 60_000;
let kept: { key: string; table: InputTable } | undefined;
let keepTimer: NodeJS.Timeout | undefined;

async function tableOf(input: UploadInput): Promise<InputTable> {
  const { size, mtimeMs } = await stat(input.file);
  const key = `${input.file} ${size} ${mtimeMs}`;
  if (kept?.key !== key) {
    kept = undefined;
    const table = await readTable(input.kind, await readFile(input.file), input.baseIri);
    if (input.nominal.length) declareNominal(table, input.nominal);
    kept = { key, table };
  }
  clearTimeout(keepTimer);
  keepTimer = setTimeout(() => (kept = undefined), KEEP_MS);
  keepTimer.unref();
  return kept.table;
}

/** The upload's outline and its first batch (batchSizes over `threads`), parsed. */
export async function outlineUpload(input: UploadInput & { threads: number }): Promise<UploadOutline & { head: UploadRow[] }> {
  const table = await tableOf(input);
  const columns = table.columns.map((c, i) => c.type !== 'nominal' ? c : {
    ...c, accept: [...new Set(table.rows.map((r) => r.values[i]).filter((v): v is string => v !== undefined))].sort(),
  });
  const head = await parseUploadRows({ ...input, from: 0, to: batchSizes(table.rows.length, input.threads)[0] ?? 0 });
  return { columns, rows: table.rows.length, warnings: table.warnings, title: table.title, keyColumn: table.keyColumn, head };
}

/**
 * Rows `from` to `to` (0-based, end excluded) with their structures parsed. The molfile is
 * written only for input with coordinates (only then does an upload store a structure file).
 */
export async function parseUploadRows(input: UploadInput & { from: number; to: number }): Promise<UploadRow[]> {
  const rows = (await tableOf(input)).rows.slice(input.from, input.to);
  // initChem loads each toolkit once per thread: Indigo only for a batch whose formats need it.
  await initChem(new Set(rows.flatMap((r) => (r.structure ? [r.structure.format] : []))));
  return rows.map(({ row, values, compoundUri, structure }) => {
    // Outside the try: a cancelled upload stops here instead of failing every structure.
    checkCancelled();
    if (!structure) return { row, values, compoundUri };
    let parsed: ParseResult;
    try {
      parsed = parseStructure(structure.text, structure.format, { molfile: 'withCoordinates', fingerprints: true });
    } catch (e) {
      parsed = { error: (e as Error).message };
    }
    return { row, values, compoundUri, parsed };
  });
}
