// Worker-thread entry of a validation fold (DESIGN: heavy computation off the event loop):
// builds the fold's model with the algorithm's own run function and predicts the held-out
// compounds with the model's own predict function, so a fold model is exactly what
// POST /algorithm/{id} would build from the same rows.
import { algorithmById } from '../algorithms/catalogue.ts';
import { predictModel } from '../algorithms/learning/predict.ts';
import type { Prediction, TrainedModel } from '../algorithms/learning/model.ts';
import type { ParamValues } from '../algorithms/params.ts';
import type { Table } from '../algorithms/table.ts';
import type { WorkerTools } from '../tasks/worker.ts';

export interface FoldInput {
  algorithmId: string;
  algorithmUri: string;
  params: ParamValues;
  /** Column of prediction_feature, the same in both tables. */
  target: number;
  train: Table;
  /** Held-out rows, their prediction_feature values blanked so nothing can leak. */
  test: Table;
}

export interface FoldOutput {
  model: TrainedModel;
  predictions: Prediction[];
}

export async function trainAndPredict(input: FoldInput, tools?: WorkerTools): Promise<FoldOutput> {
  const def = algorithmById(input.algorithmId);
  if (!def) throw new Error(`no algorithm ${input.algorithmId}`);
  const result = await def.run({ table: input.train, params: input.params, target: input.target, algorithmUri: input.algorithmUri });
  if (result.kind !== 'model') throw new Error(`${input.algorithmId} built no model`);
  tools?.checkCancelled();
  return { model: result.model, predictions: await predictModel(result.model, input.test) };
}
