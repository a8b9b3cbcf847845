// Algorithms in the worker threads (DESIGN: heavy computation off the event loop):
// descriptors over thousands of molecules or a forest on 4000 x 2048 fingerprints run in
// the pool through TaskEngine.runInWorker. workerRunner, on the caller's side, splits an
// algorithm whose rows are independent (descriptors, SMARTS counts) into chunks spread over
// the pool, so it uses every core; any other runs whole in one thread. runAlgorithm is the
// thread's side; inputs and results are plain data, but a result's rows of numbers, which
// cross as one moved buffer (src/threads/numberRows.ts).
import type { WorkerOptions } from '../tasks/api.ts';
import type { WorkerTools } from '../tasks/worker.ts';
import { buffersOf, packRows, rowAt, rowCount, type NumberRows } from '../threads/numberRows.ts';
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
