// Worker-thread entry of algorithm runs (DESIGN: heavy computation off the event loop):
// descriptors over thousands of molecules or a forest on 4000 x 2048 fingerprints run in
// the pool through TaskEngine.runInWorker; inputs and results are plain data.
import type { WorkerTools } from '../tasks/worker.ts';
import { algorithmById } from './catalogue.ts';
import type { RunInput, RunResult } from './types.ts';
import type { Table } from './table.ts';
import type { PredictOptions, Prediction, TrainedModel } from './learning/model.ts';
import { predictModel } from './learning/predict.ts';
import { withComputedFeatures } from './learning/chain.ts';

export type WorkerRunInput = Omit<RunInput, 'signal' | 'progress'> & { id: string };

export async function runAlgorithm(input: WorkerRunInput, tools?: WorkerTools): Promise<RunResult> {
  const def = algorithmById(input.id);
  if (!def) throw new Error(`no algorithm ${input.id}`);
  const { id: _id, ...run } = input;
  return def.run({ ...run, progress: tools?.progress });
}

/**
 * Predictions of a trained model (POST /model/{id}), computed off the event loop, after
 * the model's feature calculation chain has computed the features the dataset lacks.
 */
export async function predictInWorker(input: { model: TrainedModel; table: Table } & PredictOptions): Promise<Prediction[]> {
  return predictModel(input.model, await withComputedFeatures(input.model, input.table, algorithmById), input);
}
