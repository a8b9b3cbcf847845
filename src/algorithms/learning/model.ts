// A trained model as plain JSON: what it was trained on and with, its learner's state,
// and its cross-validated statistics. Predicting needs
// nothing but this object and a table.
import type { ParamValues } from '../params.ts';
import type { ClassificationStats, RegressionStats } from '../ml/metrics.ts';
import type { Representation } from './representation.ts';
import type { Calibration } from './conformal.ts';

export type LearningTask = 'classification' | 'regression';

/** What a model predicts: a learned endpoint, or distance to its training set. */
export type ModelTask = LearningTask | 'domain';

export interface Validation {
  folds: number;
  seed: number;
  stats: ClassificationStats | RegressionStats;
  /**
   * Each compound's held-out prediction (class indices when classifying, with the positive
   * class score), for the model page's plots; absent in models stored before.
   */
  heldOut?: HeldOutPrediction[];
}

export interface HeldOutPrediction {
  compound: string;
  actual: number;
  predicted: number;
  score?: number;
}

export interface TrainedModel {
  /** Local id of the learning algorithm (learners.ts key). */
  learner: string;
  algorithmUri: string;
  params: ParamValues;
  task: ModelTask;
  /** Why the model learns its task (taskChoice.ts); absent for models stored before it was said. */
  taskReason?: string;
  trainingDataset: string;
  target: { uri: string; title: string };
  /** Class labels, in the order of class indices (classification). */
  classes: string[];
  representation: Representation;
  /** Column means used for missing values. */
  means: number[];
  state: unknown;
  /**
   * Read-across models: compound URI and measured value of each training row, in fit
   * order, so a prediction can name its neighbours.
   */
  training?: { compounds: string[]; measured: Array<number | string> };
  /**
   * Absent for a domain model, which has no endpoint to validate, and for a validation's
   * fold model, whose figures are that validation's held-out predictions.
   */
  validation?: Validation;
  /** Out-of-fold nonconformity scores (conformal.ts); absent in models trained before them. */
  calibration?: Calibration;
  trainingSize: number;
}

/** One prediction: the value, and for read-across its confidence and domain flag. */
export interface Prediction {
  value: number | string | null;
  probability?: number;
  confidence?: number;
  inDomain?: boolean;
  /** Why there is no value (value null), e.g. the features a row has no value of. */
  reason?: string;
  /** Read-across: the training compounds the prediction came from, most similar first. */
  neighbours?: Neighbour[];
  /** Conformal interval at the requested level (regression; infinite when too few calibrate it). */
  lower?: number;
  upper?: number;
  /** Conformal p-value of each class, in the model's class order (classification). */
  pValues?: number[];
  /** Classes whose p-value exceeds 1 - the requested level. */
  predictionSet?: string[];
}

/** Options of a prediction run. */
export interface PredictOptions {
  /** Level of the conformal interval or set, in (0, 1); conformal.ts DEFAULT_CONFIDENCE_LEVEL when absent. */
  confidenceLevel?: number;
}

export interface Neighbour {
  compound: string;
  similarity: number;
  measured: number | string;
}
