// Algorithms in the worker threads (DESIGN: heavy computation off the event loop):
// descriptors over thousands of molecules or a forest on 4000 x 2048 fingerprints run in
// the pool through TaskEngine.runInWorker. workerRunner, on the caller's side, splits an
// algorithm whose rows are independent (descriptors, SMARTS counts) into chunks spread over
// the pool, so it uses every core; any other runs whole in one thread. runAlgorithm is the
// thread's side; inputs and results are plain data, but a result's rows of numbers, which
// cross as one moved buffer (NumberRows, below).
import type { WorkerOptions } from '../tasks/api.ts';
import type { WorkerTools } from '../tasks/worker.ts';
import { threadModule } from '../threads/threadModule.ts';
import { algorithmById } from './catalogue.ts';
import { entryAt, selectRows, type Table } from './table.ts';
import type { AlgorithmDef, FeaturesResult, RunInput, RunResult } from './types.ts';
import type { PredictOptions, Prediction, TrainedModel } from './learning/model.ts';
import { predictModel } from './learning/predict.ts';
import { withComputedFeatures } from './learning/chain.ts';

export type WorkerRunInput = Omit<RunInput, 'signal' | 'progress'> & { id: string };

/** What runAlgorithm answers: a features result whose values are all numbers has them in `packed` instead. */
export type WorkerRunResult = RunResult | (FeaturesResult & { packed: NumberRows });

export async function runAlgorithm(input: WorkerRunInput, tools?: WorkerTools): Promise<WorkerRunResult> {
  const def = algorithmById(input.id);
  if (!def) throw new Error(`no algorithm ${input.id}`);
  const { id: _id, ...run } = input;
  const result = await def.run({ ...run, progress: tools?.progress });
  const packed = result.kind === 'features' && tools ? packRows(result.values) : undefined;
  if (result.kind !== 'features' || !packed) return result;
  tools!.transfer(buffersOf(packed));
  return { ...result, values: [], packed };
}

/**
 * Predictions of a trained model (POST /model/{id}), computed off the event loop, after
 * the model's feature calculation chain has computed the features the dataset lacks.
 */
export async function predictInWorker(input: { model: TrainedModel; table: Table } & PredictOptions): Promise<Prediction[]> {
  return predictModel(input.model, await withComputedFeatures(input.model, input.table, algorithmById), input);
}

export type RunInWorker = <T>(module: URL | string, fn: string, input: unknown, options?: WorkerOptions) => Promise<T>;

/** This module, as the threads load it. */
const WORKER = threadModule('./worker.ts', import.meta.url);
/** Fewest rows worth a worker hop of their own. */
const MIN_CHUNK = 50;

/** The result as the algorithm gave it: packed rows of numbers (worker.ts) read back, each chunk as it arrives. */
function unpacked(result: WorkerRunResult): RunResult {
  if (!('packed' in result)) return result;
  const { packed, ...rest } = result;
  return { ...rest, values: Array.from({ length: rowCount(packed) }, (_, i) => rowAt(packed, i)) };
}

export function workerRunner(runInWorker: RunInWorker, workers: number): (def: AlgorithmDef, input: RunInput) => Promise<RunResult> {
  return async (def, input) => {
    const { signal, progress, ...rest } = input;
    const rows = input.table.compounds.length;
    if (!def.perRow || rows < 2 * MIN_CHUNK) {
      const call: WorkerRunInput = { id: def.id, ...rest };
      return unpacked(await runInWorker<WorkerRunResult>(WORKER, 'runAlgorithm', call, { signal, onProgress: progress }));
    }
    const parts = Math.max(1, Math.min(workers * 4, Math.floor(rows / MIN_CHUNK)));
    const size = Math.ceil(rows / parts);
    let done = 0;
    const results = await Promise.all(Array.from({ length: parts }, async (_, k) => {
      const chunk = Array.from({ length: Math.max(0, Math.min(size, rows - k * size)) }, (_, i) => k * size + i);
      // Per-row algorithms read structures only: the values stay behind.
      const table = { ...selectRows(input.table, chunk), columns: [], values: chunk.map(() => []) };
      const call: WorkerRunInput = { id: def.id, ...rest, table, target: undefined };
      const out = unpacked(await runInWorker<WorkerRunResult>(WORKER, 'runAlgorithm', call, { signal })) as FeaturesResult;
      progress?.((100 * (done += chunk.length)) / rows);
      return out;
    }));
    return { kind: 'features', columns: entryAt(results, 0, 'chunk result').columns, values: results.flatMap((r) => r.values) };
  };
}

// Rows of numbers between threads as one Float64Array, whose buffer is transferred (moved,
// not copied: src/tasks/worker.ts). Structured cloning a result of 500 rows × 200 numbers
// as arrays costs the receiving event loop tens of milliseconds in one go; a transferred
// buffer costs it nothing, and the rows are read from it as they are needed.
/** Rows of `width` cells, row-major; a missing cell (null) is marked in `missing`. */
export interface NumberRows {
  width: number;
  numbers: Float64Array;
  /** 1 where a cell is null; absent when none is. */
  missing?: Uint8Array;
}

/** The rows packed, or undefined when a cell is neither a number nor null or the rows differ in width. */
export function packRows(rows: ReadonlyArray<ReadonlyArray<unknown>>): NumberRows | undefined {
  const width = rows[0]?.length ?? 0;
  if (width === 0) return undefined;
  const numbers = new Float64Array(rows.length * width);
  let missing: Uint8Array | undefined;
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    if (row.length !== width) return undefined;
    for (let j = 0; j < width; j++) {
      const v = row[j];
      if (typeof v === 'number') numbers[i * width + j] = v;
      else if (v === null) (missing ??= new Uint8Array(numbers.length))[i * width + j] = 1;
      else return undefined;
    }
  }
  return { width, numbers, missing };
}

/** Row `i` as an array (null where missing). */
export function rowAt(p: NumberRows, i: number): Array<number | null> {
  const row: Array<number | null> = Array.from(p.numbers.subarray(i * p.width, (i + 1) * p.width));
  if (p.missing) for (let j = 0; j < p.width; j++) if (p.missing[i * p.width + j]) row[j] = null;
  return row;
}

/** Rows held. */
export const rowCount = (p: NumberRows): number => (p.width === 0 ? 0 : p.numbers.length / p.width);

/** The buffers to transfer with `p`. */
export const buffersOf = (p: NumberRows): ArrayBuffer[] => [p.numbers.buffer as ArrayBuffer, ...(p.missing ? [p.missing.buffer as ArrayBuffer] : [])];
