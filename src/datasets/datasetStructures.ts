// Upload structures → compound URIs, pipelined: every batch is queued on the worker pool at
// once, and each parsed batch is stored as compounds (one bulk commit, ensureCompounds) while
// the workers parse the batches after it. Batches are stored in upload order, so compound
// ids follow the rows. A structure the toolkit cannot read becomes an error for its row,
// not a failed upload.
import { workerThreads } from '../config.ts';
import type { Deps } from '../deps.ts';
import type { ParsedStructure } from '../chem/index.ts';
import type { InputRow } from './table.ts';
import { PARSE_WORKER, type ParseResult } from './parseWorker.ts';
import { ensureCompounds } from '../compounds/compounds.ts';
import { entryAt } from '../algorithms/table.ts';

/** Structures per worker call and per commit: large enough to amortise both, small enough to overlap them. */
const BATCH = 250;
/** The smallest of the last batches (batchSizes). */
const MIN_BATCH = 25;

/**
 * Sizes of the batches `count` structures are cut into: BATCH while much remains, then a
 * share of what is left for each thread, so that the threads (which take the batches in
 * order) run out of work together instead of one parsing the last full batch alone.
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

type Structure = NonNullable<InputRow['structure']>;

/** What structuresToCompounds answers for each structure, in order. */
export type StructureCompound = string | { error: string };

export interface StructureOptions {
  signal?: AbortSignal;
  progress?: (percent: number) => void;
  owner?: string;
  /** Called with the answers so far once each batch is stored (and awaited before the next is). */
  stored?: (answers: readonly StructureCompound[]) => Promise<void>;
}

export async function structuresToCompounds(deps: Deps, structures: readonly Structure[], options: StructureOptions = {}): Promise<StructureCompound[]> {
  // The search index computes the new compounds' pattern fingerprints once this is done,
  // not in a gap between two batches, on a core the parse needs (SearchEngine.holdFills).
  const release = deps.search.holdFills();
  try {
    return await parseAndStore(deps, structures, options);
  } finally {
    release();
  }
}

async function parseAndStore(deps: Deps, structures: readonly Structure[], { signal, progress, owner, stored }: StructureOptions): Promise<StructureCompound[]> {
  const parses: Array<Promise<ParseResult[]>> = [];
  let i = 0;
  for (const size of batchSizes(structures.length, workerThreads(deps.config))) {
    const parse = deps.tasks.runInWorker<ParseResult[]>(PARSE_WORKER, 'parseStructures', structures.slice(i, i + size), { signal });
    i += size;
    // Awaited below in order; a failure after an earlier one must not go unhandled.
    parse.catch(() => undefined);
    parses.push(parse);
  }
  const out: StructureCompound[] = [];
  for (const parse of parses) {
    const parsed = await parse;
    const good = parsed.filter((p): p is ParsedStructure => !('error' in p));
    const uris = await ensureCompounds(deps, good, owner);
    let k = 0;
    for (const p of parsed) out.push('error' in p ? { error: p.error } : entryAt(uris, k++, 'compound')); // one URI per good structure
    progress?.((100 * out.length) / structures.length);
    await stored?.(out);
  }
  return out;
}
