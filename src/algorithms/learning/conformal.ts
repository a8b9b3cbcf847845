// Conformal prediction around any learner (Vovk, Gammerman & Shafer, "Algorithmic Learning
// in a Random World"): every training compound's out-of-fold prediction from the model's
// own k-fold cross-validation gives a nonconformity score, stored with the model; a new
// compound's score from the final model is ranked among them. Regression gives an interval
// (absolute residual), classification a p-value per class (1 - P(class)), Mondrian: each
// class is calibrated on its own compounds only, so coverage holds per class. The level is
// chosen when predicting, so no retraining is needed to change it. A learner that reports a
// difficulty (kNN: 1 - mean similarity of the neighbours) has its residuals normalised by it
// (Papadopoulos, Vovk & Gammerman 2011, "Regression conformal prediction with nearest
// neighbours"), so intervals are wide far from the training compounds and narrow near them.
import type { ParamDef } from '../params.ts';

/** The conformal method, as the model's RDF states it (ot:conformalMethod, docs/models.md). */
export const CONFORMAL_METHOD = 'cross-conformal';

/** confidence_level when the client sends none. */
export const DEFAULT_CONFIDENCE_LEVEL = 0.9;

/** confidence_level of POST /model/{id} and of validations: a 400 names the range (0,1). */
export const CONFIDENCE_LEVEL_PARAM: ParamDef = {
  name: 'confidence_level', type: 'float', default: DEFAULT_CONFIDENCE_LEVEL, min: 0, minExclusive: true, max: 1, maxExclusive: true,
  description: 'Confidence level of the conformal prediction interval (regression) or prediction set (classification), in (0,1)',
};

/** Rounding of scores: equal probabilities summed in another order must tie (docs/models.md). */
const DIGITS = 1e9;

/** Added to a difficulty before dividing by it: the interval never shrinks to nothing. */
export const DIFFICULTY_OFFSET = 0.2;

/** What conformal scoring reads of a learner's raw prediction (learners.ts RawPrediction). */
export interface RawPrediction {
  /** Class index or value. */
  value: number;
  /** Probability of the positive (last) class. */
  score?: number;
  probabilities?: number[];
  /** Regression: how hard the compound is (0-1), when the learner knows. */
  difficulty?: number;
}

export interface Calibration {
  method: typeof CONFORMAL_METHOD;
  /** Folds of the cross-validation the scores come from. */
  folds: number;
  /** Regression: every calibration compound's absolute residual, ascending (normalised: divided by difficulty + offset). */
  residuals?: number[];
  /** Regression: the residuals are normalised by the learner's difficulty (plus `offset`). */
  normalised?: { offset: number };
  /** Classification: per class index, 1 - P(true class) of that class's compounds, ascending. */
  byClass?: number[][];
}

export interface ConformalRegion {
  lower?: number;
  upper?: number;
  /** p-value of each class, in the order of the model's classes. */
  pValues?: number[];
  /** Indices of the classes whose p-value exceeds 1 - confidence level. */
  set?: number[];
}

const round = (v: number) => Math.round(v * DIGITS) / DIGITS;

/** Class probabilities of a raw prediction: the learner's own, else from the positive-class score or the vote. */
export function probabilitiesOf(p: RawPrediction, classes: number): number[] {
  if (p.probabilities?.length === classes) return p.probabilities;
  if (classes === 2 && p.score !== undefined) return [1 - p.score, p.score];
  return Array.from({ length: classes }, (_, c) => (c === p.value ? 1 : 0));
}

/** Nonconformity of class `c` for a prediction: 1 - P(c). */
export const classScore = (probabilities: readonly number[], c: number): number => round(1 - (probabilities[c] ?? 0));

/** The calibration of a learner from its out-of-fold predictions (undefined where a row was not predicted). */
export function calibrate(y: readonly number[], predicted: ReadonlyArray<RawPrediction | undefined>, classes: number, folds: number): Calibration {
  const ascending = (v: number[]) => v.sort((a, b) => a - b);
  if (classes === 0) {
    const done = predicted.filter((p) => p !== undefined);
    const normalised = done.length > 0 && done.every((p) => p.difficulty !== undefined && Number.isFinite(p.difficulty)) ? { offset: DIFFICULTY_OFFSET } : undefined;
    const residuals = y.flatMap((v, i) => {
      const p = predicted[i];
      return p && Number.isFinite(p.value) ? [round(Math.abs(v - p.value) / scale(normalised, p))] : [];
    });
    return { method: CONFORMAL_METHOD, folds, residuals: ascending(residuals), ...(normalised ? { normalised } : {}) };
  }
  const byClass: number[][] = Array.from({ length: classes }, () => []);
  y.forEach((c, i) => {
    const p = predicted[i];
    if (p) byClass[c]?.push(classScore(probabilitiesOf(p, classes), c));
  });
  return { method: CONFORMAL_METHOD, folds, byClass: byClass.map(ascending) };
}

/** What a residual is divided by: difficulty + offset when normalised (a missing difficulty counts as the hardest, 1). */
const scale = (normalised: Calibration['normalised'], p: RawPrediction): number => (normalised ? Math.max(0, Math.min(1, p.difficulty ?? 1)) + normalised.offset : 1);

/** How many of the ascending `scores` are at least `alpha` (binary search). */
function atLeast(scores: readonly number[], alpha: number): number {
  let lo = 0;
  let hi = scores.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (scores[mid]! < alpha) lo = mid + 1;
    else hi = mid;
  }
  return scores.length - lo;
}

/** p-value of score `alpha` among `scores`: (#{scores >= alpha} + 1) / (n + 1), valid without randomisation (conservative on ties). */
export const pValue = (scores: readonly number[], alpha: number): number => (atLeast(scores, alpha) + 1) / (scores.length + 1);

/**
 * Half-width of the interval at `level`: the ceil(level (n + 1))-th smallest residual;
 * Infinity when n is too small for the level (the whole line is the honest answer).
 */
export function halfWidth(residuals: readonly number[], level: number): number {
  const rank = Math.ceil(level * (residuals.length + 1) - 1e-9);
  return rank > residuals.length ? Infinity : residuals[rank - 1]!; // 1 <= rank <= n
}

/** The conformal region of one raw prediction at `level` (in (0, 1)). */
export function region(cal: Calibration, p: RawPrediction, classes: number, level: number): ConformalRegion {
  if (cal.residuals) {
    const q = halfWidth(cal.residuals, level) * scale(cal.normalised, p);
    return { lower: p.value - q, upper: p.value + q };
  }
  const probabilities = probabilitiesOf(p, classes);
  const pValues = (cal.byClass ?? []).map((scores, c) => pValue(scores, classScore(probabilities, c)));
  return { pValues, set: pValues.flatMap((v, c) => (v > 1 - level + 1e-12 ? [c] : [])) };
}

/** A prediction set as text: class labels in braces, `{}` when no class is likely enough. */
export const setText = (labels: readonly string[]): string => `{${labels.join('; ')}}`;
