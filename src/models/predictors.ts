// How models predict: each kind of model (the `kind` given to createModel) has a predictor,
// built once at boot into deps.predictors (src/boot.ts). Models stay data (RDF + a JSON
// file); the code that applies them lives with the algorithm that trained them.
import type { LoadedDataset } from '../datasets/loadedDataset.ts';
import type { ModelInfo } from './modelInfo.ts';

export interface PredictionInput {
  model: ModelInfo;
  /** What the learner stored at createModel (the `data` field), parsed from JSON. */
  data: unknown;
  /** The dataset to predict, with all its features (independent variables by URI). */
  dataset: LoadedDataset;
  signal?: AbortSignal;
  subjectid?: string;
  /** confidence_level of POST /model/{id}: the level of conformal intervals and sets. */
  confidenceLevel?: number;
}

export interface PredictionOutput {
  /**
   * values[i][j]: prediction for dataset.compounds[i] of model.predictedVariables[j]
   * (a confidence feature is one of the predicted variables). null where none.
   */
  values: Array<Array<number | string | null>>;
  /**
   * The features of values' columns when they are more than model.predictedVariables
   * (these first, then e.g. the conformal outputs, ot:conformalVariables).
   */
  features?: readonly string[];
  /** Rows the model could not predict, with why (become ot:warning on the result). */
  warnings?: string[];
  /** Read-across: the model's neighbour output and each row's neighbours, most similar first (models/neighbours.ts). */
  neighbours?: { output: NeighbourOutputInfo; rows: ReadonlyArray<readonly NeighbourValue[] | undefined> };
}

/** One neighbour of a prediction, most similar first in its list. */
export interface NeighbourValue {
  compound: string;
  similarity: number;
  measured: number | string;
}

/** What a model's neighbour output is: its node, its most neighbours per prediction, its measure. */
export interface NeighbourOutputInfo {
  uri: string;
  count: number;
  measure: string;
}

export type Predictor = (input: PredictionInput) => Promise<PredictionOutput>;

/** Predictors by model kind. */
export type Predictors = Map<string, Predictor>;
