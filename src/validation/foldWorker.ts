// Worker-thread entry of a validation fold (DESIGN: heavy computation off the event loop):
// builds the fold's model with the algorithm's own run function and predicts the held-out
// compounds with the model's own predict function, so a fold model is what
// POST /algorithm/{id} would build from the same rows, less the learner's own
// cross-validation summary (the validation's held-out predictions are the figures).
import { algorithmById } from '../algorithms/catalogue.ts';
import { predictModel } from '../algorithms/learning/predict.ts';
import { LEARNERS } from '../algorithms/learning/learners.ts';
import { vectors } from '../algorithms/learning/representation.ts';
import type { Prediction, TrainedModel } from '../algorithms/learning/model.ts';
import type { ParamValues } from '../algorithms/params.ts';
import { entryAt, type Table } from '../algorithms/table.ts';
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
  /** Level of the held-out conformal regions (conformal.ts default when absent). */
  confidenceLevel?: number;
}

export interface ScoredPrediction extends Prediction {
  /** Probability of the positive (last) class, from the learner itself (classification). */
  score?: number;
}

export interface FoldOutput {
  model: TrainedModel;
  predictions: ScoredPrediction[];
}

/**
 * The model's predictions, each with the learner's probability of the positive class: the
 * ROC curve needs that score, and a Prediction's confidence is not one (kNN weighs it by
 * similarity). Vectors and missing values are built as the trainer builds them.
 */
export async function predictScored(input: { model: TrainedModel; table: Table; confidenceLevel?: number }): Promise<ScoredPrediction[]> {
  const { model, table } = input;
  const out: ScoredPrediction[] = await predictModel(model, table, { confidenceLevel: input.confidenceLevel });
  const learner = LEARNERS[model.learner];
  if (model.task !== 'classification' || !learner) return out;
  const vecs = await vectors(table, model.representation);
  const rows = vecs.flatMap((v, i) => (v ? [i] : []));
  // rows holds positions of vecs and out (one per table row); one mean per vector position.
  const raw = learner.predict(model.state, rows.map((i) => vecs[i]!.map((v, j) => (Number.isFinite(v) ? v : model.means[j]!))));
  rows.forEach((i, t) => {
    const score = entryAt(raw, t, 'prediction').score; // a learner predicts once per vector
    if (score !== undefined) out[i] = { ...entryAt(out, i, 'prediction'), score };
  });
  return out;
}

export async function trainAndPredict(input: FoldInput, tools?: WorkerTools): Promise<FoldOutput> {
  const def = algorithmById(input.algorithmId);
  if (!def) throw new Error(`no algorithm ${input.algorithmId}`);
  // No inner cross-validation: the fold's held-out predictions are its figures (docs/validation.md).
  const result = await def.run({ table: input.train, params: input.params, target: input.target, algorithmUri: input.algorithmUri, crossvalidate: false });
  if (result.kind !== 'model') throw new Error(`${input.algorithmId} built no model`);
  tools?.checkCancelled();
  return { model: result.model, predictions: await predictScored({ model: result.model, table: input.test, confidenceLevel: input.confidenceLevel }) };
}
