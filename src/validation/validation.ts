// What a validation resource holds (/validation/{id}): how it was made, its folds with the
// model built per fold, every compound's held-out prediction, and the figures per fold,
// pooled and (for an external set) inside and outside the applicability domain.
import type { TargetMatch } from './targetMatch.ts';
import type { ScoredPrediction } from './foldWorker.ts';
import { figuresOf, type Figures, type Outcome } from './statistics.ts';

export type ValidationType = 'crossvalidation' | 'training_test_split' | 'test_set_validation';
export type Task = 'classification' | 'regression';

export interface HeldOut {
  /** Row of the tested dataset. */
  row: number;
  compound: string;
  /** Fold the compound was tested in (0-based; 0 for a split or an external set). */
  fold: number;
  actual: string | number;
  predicted: string | number | null;
  /** Probability of the positive (last) class (classification). */
  score?: number;
  confidence?: number;
  inDomain?: boolean;
  /** Conformal interval at the validation's confidence level (regression). */
  lower?: number;
  upper?: number;
  /** Conformal p-value by class label, and the prediction set at the level (classification). */
  pValues?: Record<string, number>;
  predictionSet?: string[];
}

export interface FoldResult {
  fold: number;
  model: string;
  figures: Figures;
}

export interface ValidationResult {
  type: ValidationType;
  /** Learning algorithm validated (absent for an external set, where the model is given). */
  algorithm?: string;
  /** The model tested on an external set. */
  model?: string;
  /** dataset_uri, or test_dataset_uri of an external set. */
  dataset: string;
  testTargetDataset?: string;
  predictionFeature: string;
  /** How an external set's column of predictionFeature was found (targetMatch.ts). */
  targetMatch?: TargetMatch;
  task: Task;
  /** Class labels in the order of class indices (classification). */
  classes: string[];
  numFolds?: number;
  seed?: number;
  stratified?: boolean;
  splitRatio?: number;
  folds: FoldResult[];
  predictions: HeldOut[];
  figures: Figures;
  /** Compounds of the dataset without a measured value: never tested. */
  withoutClass: number;
  domain?: { share: number; inside: Figures; outside: Figures };
  /** Level of the held-out conformal regions (conformalFigures.ts); the default when absent. */
  confidenceLevel?: number;
}

/**
 * The held-out record of one prediction. `modelClasses` are the classes of the model that
 * predicted: its score is for its last class, the positive one only when they are `classes`.
 */
export function heldOut(row: number, compound: string, fold: number, actual: string | number, p: ScoredPrediction, classes: readonly string[], modelClasses: readonly string[]): HeldOut {
  const out: HeldOut = { row, compound, fold, actual, predicted: p.value };
  const same = classes.length === modelClasses.length && classes.every((c, i) => c === modelClasses[i]);
  if (classes.length > 0 && p.value !== null && p.score !== undefined && same) out.score = p.score;
  if (p.confidence !== undefined) out.confidence = p.confidence;
  if (p.inDomain !== undefined) out.inDomain = p.inDomain;
  if (p.value !== null && p.lower !== undefined && p.upper !== undefined) Object.assign(out, { lower: p.lower, upper: p.upper });
  if (p.value !== null && p.pValues && p.predictionSet) {
    out.pValues = Object.fromEntries(modelClasses.map((c, i) => [c, p.pValues![i]!])); // one p-value per model class
    out.predictionSet = p.predictionSet;
  }
  return out;
}

export function outcomeOf(h: HeldOut, task: Task, classes: readonly string[]): Outcome {
  if (task === 'regression') return { actual: Number(h.actual), predicted: h.predicted === null ? null : Number(h.predicted) };
  const predicted = h.predicted === null ? -1 : classes.indexOf(String(h.predicted));
  return { actual: classes.indexOf(String(h.actual)), predicted: predicted < 0 ? null : predicted, score: h.score };
}

export function figuresOfHeldOut(rows: readonly HeldOut[], task: Task, classes: readonly string[]): Figures {
  return figuresOf(task, rows.map((h) => outcomeOf(h, task, classes)), classes.length);
}
