// Runs algorithms in worker threads (DESIGN: heavy computation off the event loop). An
// algorithm whose rows are independent (descriptors, SMARTS counts) is split into chunks
// spread over the pool, so it uses every core; any other runs whole in one worker.
import type { WorkerOptions } from '../tasks/api.ts';
import { entryAt, selectRows } from './table.ts';
import type { AlgorithmDef, FeaturesResult, RunInput, RunResult } from './types.ts';
import type { WorkerRunInput, WorkerRunResult } from './worker.ts';
import { threadModule } from '../threads/threadModule.ts';
import { rowAt, rowCount } from '../threads/numberRows.ts';

export type RunInWorker = <T>(module: URL | string, fn: string, input: unknown, options?: WorkerOptions) => Promise<T>;

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
