// The prediction registry: each learning algorithm registers how its models
// predict, under the kind name it gave createModel. Models stay data (RDF + a JSON file);
// the code that applies them lives with the algorithm.
import type { Deps } from '../deps.ts';
import type { LoadedDataset } from '../datasets/datasetLoad.ts';
import type { ModelInfo } from './models.ts';

export interface PredictionInput {
  model: ModelInfo;
  /** What the learner stored at createModel (the `data` field), parsed from JSON. */
  data: unknown;
  /** The dataset to predict, with all its features (independent variables by URI). */
  dataset: LoadedDataset;
  signal?: AbortSignal;
  subjectid?: string;
}

export interface PredictionOutput {
  /**
   * values[i][j]: prediction for dataset.compounds[i] of model.predictedVariables[j]
   * (a confidence feature is one of the predicted variables). null where none.
   */
  values: Array<Array<number | string | null>>;
  /** Rows the model could not predict, with why (become ot:warning on the result). */
  warnings?: string[];
}

export type Predictor = (deps: Deps, input: PredictionInput) => Promise<PredictionOutput>;

const predictors = new Map<string, Predictor>();

/** Registers the prediction function of models made with kind `kind` (e.g. "lazar"). */
export function registerPredictor(kind: string, predict: Predictor): void {
  predictors.set(kind, predict);
}

export function predictorOf(kind: string): Predictor | undefined {
  return predictors.get(kind);
}
