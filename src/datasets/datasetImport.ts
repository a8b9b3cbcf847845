// From an upload saved in a file to a stored dataset. The job threads read the file and
// parse its structures (uploadReader.ts), a batch of rows per call; here, batch by batch in
// row order, structures become compounds (one bulk commit each, ensureCompounds), columns
// become features (reused where the source names ours) and rows become entries. Every row
// that cannot be stored, every duplicate and every unreadable value becomes a warning on
// the dataset naming its row.
import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'n3';
import type { Deps } from '../deps.ts';
import { uriOf } from '../deps.ts';
import { workerThreads } from '../config.ts';
import { BadRequest } from '../errors.ts';
import { entryAt } from '../algorithms/table.ts';
import { planFeatures, readFeature, readFeatures, type FeatureInfo } from '../features/features.ts';
import type { WriteOp } from '../store/writeOps.ts';
import type { FeatureSpec } from '../features/featureModel.ts';
import { ensureCompounds } from '../compounds/compounds.ts';
import type { ParsedStructure } from '../chem/index.ts';
import { withoutCredentials } from '../http/outbound/credentials.ts';
import { OT, RDF as RDFNS } from '../rdf/vocab.ts';
import { isValidIri } from '../store/binder.ts';
import { isNumeric } from './table.ts';
import type { UploadKind } from './readTable.ts';
import { EntryWriter, numberLiteral, stringLiteral, type DatasetMeta } from './datasets.ts';
import { isDataset } from './datasetLayout.ts';
import { batchSizes, UPLOAD_READER, type UploadInput, type UploadOutline, type UploadRow } from './uploadReader.ts';

const { namedNode } = DataFactory;

export interface ImportOptions {
  dataset: string;
  meta: DatasetMeta;
  /** Titles of columns to store as nominal features (declareNominal). */
  nominal?: string[];
  signal?: AbortSignal;
  progress?: (percent: number) => void;
  /**
   * Write a new dataset's entries batch by batch, rather than once every row has its
   * compound: for an upload whose failure drops the dataset's graph (a task's; datasetUploadJob.ts).
   */
  streamEntries?: boolean;
  /** Stored within the request, its client waiting: the parsing goes before queued job work. */
  urgent?: boolean;
  /**
   * The dataset URI was minted for this upload and nothing is stored under it: its new
   * features are written in the commit that links its entries (not streamed entries).
   */
  fresh?: boolean;
}

export interface ImportResult {
  entries: number;
  warnings: string[];
}

type Problem = { row: number; column?: number; message: string };
export type RowCompound = string | { error: string };

/** Stores the upload saved in `file` as (or appends it to) `options.dataset`. */
export async function importUpload(deps: Deps, file: string, kind: UploadKind, options: ImportOptions): Promise<ImportResult> {
  const { dataset, signal, urgent } = options;
  const input: UploadInput = { file, kind, baseIri: dataset, nominal: options.nominal ?? [] };
  const threads = workerThreads(deps.config);
  // The call that reads the file parses the first batch too: a small upload takes one call.
  const { head, ...outline } = await deps.tasks.runInWorker<UploadOutline & { head: UploadRow[] }>(UPLOAD_READER, 'outlineUpload', { ...input, threads }, { signal, urgent });
  // A new dataset's entries are written while the rows after them are parsed: until the
  // final commit links them nothing of it is visible, and a failed upload drops its graph
  // (datasetUploadJob.ts). Rows added to an existing dataset are written once every row has
  // its compound, so that a refused upload leaves nothing in it.
  const stream = options.streamEntries === true && !(await isDataset(deps, dataset));
  const rows = new RowEntries(deps, outline, options, stream);
  try {
    const ranges: Array<[number, number]> = [];
    for (const size of batchSizes(outline.rows, threads)) ranges.push([ranges.at(-1)?.[1] ?? 0, (ranges.at(-1)?.[1] ?? 0) + size]);
    // Batches go to the threads ahead of the one being stored, at most two per thread.
    const parse = ([from, to]: [number, number]) => {
      const call = deps.tasks.runInWorker<UploadRow[]>(UPLOAD_READER, 'parseUploadRows', { ...input, from, to }, { signal, urgent });
      call.catch(() => undefined); // awaited below in order; a failure after an earlier one must not go unhandled
      return call;
    };
    const ahead = [Promise.resolve(head), ...ranges.slice(1, 2 * threads).map(parse)];
    for (let k = 0; k < ranges.length; k++) {
      const batch = await ahead.shift()!; // one call per range, started in order
      const next = ranges[k + ahead.length + 1];
      if (next) ahead.push(parse(next));
      await rows.take(batch, await compoundsOf(deps, batch));
      options.progress?.(((stream ? 95 : 50) * entryAt(ranges, k, 'range')[1]) / outline.rows);
    }
    rows.refuseIfEmpty();
    return await rows.finish();
  } finally {
    await rows.close();
  }
}

async function localCompoundExists(deps: Deps, uri: string): Promise<boolean> {
  const compound = uri.replace(/\/conformer\/[^/]+$/, '');
  return (await deps.store.match(namedNode(compound), RDFNS.type, OT.Compound, null)).length > 0 || (await deps.store.hasGraph(compound));
}

/**
 * The compound of each row: its parsed structure stored as a compound (one commit for the
 * batch), or the compound URI it names: one of this service must exist; one of another
 * service is kept as it is (linked data: it is not fetched on upload).
 */
async function compoundsOf(deps: Deps, rows: readonly UploadRow[]): Promise<RowCompound[]> {
  const local = uriOf(deps.config, '/compound/');
  const out: RowCompound[] = new Array(rows.length);
  const parsed: ParsedStructure[] = [];
  const parsedAt: number[] = [];
  for (const [i, row] of rows.entries()) {
    // A row naming both (the service's own CSV and SD files): the compound it names, while
    // it exists here; otherwise its structure makes (or finds) one.
    const uri = row.compoundUri;
    if (row.parsed && uri && isValidIri(uri) && uri.startsWith(local) && (await localCompoundExists(deps, uri))) out[i] = uri;
    else if (row.parsed && 'error' in row.parsed) out[i] = { error: row.parsed.error };
    else if (row.parsed) {
      parsed.push(row.parsed);
      parsedAt.push(i);
    } else if (!uri || !isValidIri(uri)) out[i] = { error: `not a compound URI: ${JSON.stringify((uri ?? '').slice(0, 100))}` };
    else if (uri.startsWith(local) && !(await localCompoundExists(deps, uri))) out[i] = { error: `compound ${uri} not found` };
    // A token or user-info the uploader wrote into a compound URI is not stored, nor later sent.
    else out[i] = withoutCredentials(uri);
  }
  const uris = parsed.length ? await ensureCompounds(deps, parsed) : [];
  parsedAt.forEach((i, k) => (out[i] = entryAt(uris, k, 'compound'))); // one URI per structure
  return out;
}

const warningText = (w: Problem): string => (w.column === undefined ? `row ${w.row}: ${w.message}` : `row ${w.row}, column ${w.column} ${w.message}`);

/**
 * The entries of an upload's rows, written in row order as their compounds become known
 * (take), each row's warnings noted on the way; the features of its columns are made when
 * the first row with a compound is written.
 */
class RowEntries {
  private readonly firstRow = new Map<string, number>();
  private readonly warnings: Problem[];
  /** Rows that have no compound, with why (refuseIfEmpty). */
  private readonly failures: Problem[] = [];
  /** Rows held until finish when not streaming. */
  private readonly held: Array<{ row: UploadRow; compound: string }> = [];
  private writer: EntryWriter | undefined;
  private features: string[] = [];
  private numeric: boolean[] = [];
  private compounds = 0;

  constructor(
    private readonly deps: Deps,
    private readonly outline: UploadOutline,
    private readonly options: ImportOptions,
    private readonly streaming: boolean,
  ) {
    this.warnings = outline.warnings.map((w) => ({ ...w }));
  }

  async take(rows: readonly UploadRow[], compounds: readonly RowCompound[]): Promise<void> {
    for (const [r, row] of rows.entries()) {
      const compound = entryAt(compounds, r, 'row compound'); // compoundsOf answers one per row
      if (typeof compound !== 'string') {
        this.failures.push({ row: row.row, message: compound.error });
        this.warnings.push({ row: row.row, message: `${compound.error}; row skipped` });
        continue;
      }
      this.compounds++;
      const seen = this.firstRow.get(compound);
      if (seen !== undefined) this.warnings.push({ row: row.row, message: `duplicate structure: same compound as row ${seen} (${compound}); both kept` });
      else this.firstRow.set(compound, row.row);
      if (this.streaming) await this.write(row, compound);
      else this.held.push({ row, compound });
    }
  }

  /**
   * An upload of which no row can be stored is refused (400) with the first row's problem,
   * rather than answered 200 with an empty dataset the client did not mean to make.
   */
  refuseIfEmpty(): void {
    if (this.compounds > 0) return;
    const problems = [...this.outline.warnings, ...this.failures];
    if (problems.length === 0) return;
    const first = problems.sort((a, b) => a.row - b.row)[0]!; // problems is not empty (checked above)
    throw new BadRequest(`no row loaded: row ${first.row}: ${first.message}`, {
      details: `${problems.length} row(s) could not be read; nothing was stored.`,
    });
  }

  /** Writes the rows held, then links the entries written; 0 entries when no row had a compound. */
  async finish(): Promise<ImportResult> {
    for (const [i, { row, compound }] of this.held.entries()) {
      await this.write(row, compound);
      if (this.writer?.chunkEnded) this.options.progress?.(Math.min(95, 50 + (45 * (i + 1)) / this.held.length));
    }
    this.held.length = 0;
    const writer = this.writer ?? (await this.open());
    const texts = this.warnings.sort((a, b) => a.row - b.row).map(warningText);
    const meta = { ...this.options.meta, title: this.options.meta.title ?? this.outline.title };
    return { entries: await writer.finish(texts, meta), warnings: texts };
  }

  async close(): Promise<void> {
    await this.writer?.close();
  }

  private async write(row: UploadRow, compound: string): Promise<void> {
    const writer = this.writer ?? (await this.open());
    row.values.forEach((v, i) => {
      if (v === undefined || !this.numeric[i] || isNumeric(v)) return;
      const column = entryAt(this.outline.columns, i, 'column');
      this.warnings.push({ row: row.row, column: this.columnNumber(i), message: `(${JSON.stringify(column.title)}): value ${JSON.stringify(v)} is not a number; cell left empty` });
    });
    await writer.write({ compound, values: row.values.map((v, i) => this.literalOf(v, i)) });
  }

  /** 1-based position of feature column `i` in the upload: the CSV's structure column is not a feature. */
  private columnNumber(i: number): number {
    const { columns, keyColumn } = this.outline;
    return columns[i]?.position ?? (keyColumn !== undefined && i >= keyColumn ? i + 2 : i + 1);
  }

  private async open(): Promise<EntryWriter> {
    const { deps, options } = this;
    const fresh = options.fresh === true && !this.streaming;
    const { features, infos, ops } = await featuresOf(deps, this.outline, options.dataset, fresh);
    if (!fresh && ops.length > 0) await deps.store.commit(ops);
    this.features = features;
    this.numeric = infos.map((f) => f?.type === 'numeric');
    this.writer = await EntryWriter.open(deps, { dataset: options.dataset, features, signal: options.signal, featureInfos: infos, fresh, alsoCommit: fresh ? ops : undefined });
    return this.writer;
  }

  private literalOf(v: string | undefined, i: number): RDF.Literal | undefined {
    if (v === undefined) return undefined;
    if (!this.numeric[i]) return stringLiteral(v);
    return isNumeric(v) ? numberLiteral(Number(v)) : undefined; // a warning says so (write)
  }
}

/**
 * The feature of each column (one of this service the source names, or one its dataset
 * made, or a new one), what each is, and the new ones' graphs, not yet written. `fresh`: the
 * dataset was minted for this upload, so it made none yet.
 */
async function featuresOf(deps: Deps, outline: UploadOutline, dataset: string, fresh: boolean): Promise<{ features: string[]; infos: Array<FeatureInfo | undefined>; ops: WriteOp[] }> {
  const featurePrefix = uriOf(deps.config, '/feature/');
  const named = await Promise.all(outline.columns.map((c) => (c.featureUri?.startsWith(featurePrefix) ? readFeature(deps, c.featureUri) : Promise.resolve(undefined))));
  const specs: FeatureSpec[] = [];
  outline.columns.forEach((c, i) => {
    if (named[i]) return;
    specs.push({ title: c.title, type: c.type ?? 'string', units: c.spec?.units, sameAs: c.spec?.sameAs, source: dataset, acceptValues: c.accept });
  });
  const plan = await planFeatures(deps, specs, fresh ? new Set([dataset]) : undefined);
  let k = 0;
  // planFeatures gives one feature per spec: one per column not reused, in order.
  const features = outline.columns.map((c, i) => (named[i] ? c.featureUri! : entryAt(plan.uris, k++, 'planned feature')));
  const found = features.filter((f, i) => !named[i] && !plan.made.has(f));
  const read = new Map((await readFeatures(deps, found)).map((info, j) => [found[j]!, info]));
  const infos = features.map((f, i) => named[i] ?? plan.made.get(f) ?? read.get(f));
  return { features, infos, ops: plan.ops };
}
