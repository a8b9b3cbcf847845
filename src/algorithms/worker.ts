// Worker-thread entry of algorithm runs (DESIGN: heavy computation off the event loop):
// descriptors over thousands of molecules or a forest on 4000 x 2048 fingerprints run in
// the pool through TaskEngine.runInWorker; inputs and results are plain data, but a
// result's rows of numbers, which cross as one moved buffer (src/threads/numberRows.ts).
import type { WorkerTools } from '../tasks/worker.ts';
import { buffersOf, packRows, type NumberRows } from '../threads/numberRows.ts';
import { algorithmById } from './catalogue.ts';
import type { FeaturesResult, RunInput, RunResult } from './types.ts';
import type { Table } from './table.ts';
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
