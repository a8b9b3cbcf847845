// The figures of a validation (OECD QSAR principle 4: goodness of fit, robustness and
// predictivity), computed from held-out predictions. Classification reuses the learners'
// metrics (accuracy, balanced accuracy, AUC, confusion) and adds sensitivity, specificity
// and MCC; regression reports R² as the squared Pearson correlation of observed and
// predicted (as the OpenTox validation service did) and Q² = 1 − PRESS/SS (scikit-learn's
// r2_score on held-out predictions), with RMSE and MAE.
import { classificationStats, regressionStats } from '../algorithms/ml/metrics.ts';

export interface ClassificationFigures {
  kind: 'classification';
  /** Predictions counted. */
  n: number;
  /** Compounds with a measured value but no prediction (no structure or vector). */
  unpredicted: number;
  accuracy: number;
  balancedAccuracy: number;
  /** Recall of the positive (last) class; NaN unless there are exactly two classes. */
  sensitivity: number;
  /** Recall of the negative (first) class; NaN unless there are exactly two classes. */
  specificity: number;
  /** Matthews correlation coefficient, the multi-class (Gorodkin) form scikit-learn uses. */
  mcc: number;
  /** AUC of the positive (last) class; NaN unless there are exactly two classes. */
  auc: number;
  /** confusion[actual][predicted], in the order of the class labels. */
  confusion: number[][];
}

export interface RegressionFigures {
  kind: 'regression';
  n: number;
  unpredicted: number;
  r2: number;
  q2: number;
  rmse: number;
  mae: number;
}

export type Figures = ClassificationFigures | RegressionFigures;

/** One compound's held-out prediction: class indices (classification) or values. */
export interface Outcome {
  actual: number;
  /** Null when the model gave no prediction. */
  predicted: number | null;
  /** Probability of the positive (last) class, the score of the ROC curve. */
  score?: number;
}

export function classificationFigures(outcomes: readonly Outcome[], classCount: number): ClassificationFigures {
  const done = outcomes.filter((o) => o.predicted !== null);
  const actual = done.map((o) => o.actual);
  const predicted = done.map((o) => o.predicted as number);
  const base = classificationStats(actual, predicted, done.map((o) => o.score ?? (o.predicted as number)), classCount);
  const c = base.confusion;
  const binary = classCount === 2;
  // Called for the two classes of a binary task only: c is 2 x 2.
  const recall = (k: number) => {
    const row = c[k]!;
    const total = row.reduce((s, v) => s + v, 0);
    return total === 0 ? NaN : row[k]! / total;
  };
  return {
    kind: 'classification',
    n: base.n,
    unpredicted: outcomes.length - done.length,
    accuracy: base.accuracy,
    balancedAccuracy: base.balancedAccuracy,
    sensitivity: binary ? recall(1) : NaN,
    specificity: binary ? recall(0) : NaN,
    mcc: matthews(c),
    auc: base.auc,
    confusion: c,
  };
}

/** MCC of a confusion matrix; 0 when a marginal is constant (scikit-learn's convention). */
export function matthews(confusion: readonly (readonly number[])[]): number {
  const k = confusion.length;
  const t = confusion.map((row) => row.reduce((s, v) => s + v, 0));
  // A confusion matrix is square: every index below is in range.
  const p = Array.from({ length: k }, (_, j) => confusion.reduce((s, row) => s + row[j]!, 0));
  const n = t.reduce((s, v) => s + v, 0);
  const correct = confusion.reduce((s, row, i) => s + row[i]!, 0);
  const cov = correct * n - t.reduce((s, v, i) => s + v * p[i]!, 0);
  const denom = Math.sqrt((n * n - p.reduce((s, v) => s + v * v, 0)) * (n * n - t.reduce((s, v) => s + v * v, 0)));
  return denom === 0 ? 0 : cov / denom;
}

export function regressionFigures(outcomes: readonly Outcome[]): RegressionFigures {
  const done = outcomes.filter((o) => o.predicted !== null);
  const y = done.map((o) => o.actual);
  const f = done.map((o) => o.predicted as number);
  // Q² (1 - PRESS/SS), RMSE and MAE are the model statistics' own figures; R² here is the
  // squared Pearson correlation of observed and predicted (docs/validation.md).
  const { n, r2: q2, rmse, mae } = regressionStats(y, f);
  const mean = (v: readonly number[]) => v.reduce((s, x) => s + x, 0) / v.length;
  const my = mean(y);
  const mf = mean(f);
  let sxy = 0;
  let syy = 0;
  let sff = 0;
  y.forEach((a, i) => {
    const fi = f[i]!; // y and f are built from the same rows
    sxy += (a - my) * (fi - mf);
    syy += (a - my) ** 2;
    sff += (fi - mf) ** 2;
  });
  const r = syy === 0 || sff === 0 ? NaN : sxy / Math.sqrt(syy * sff);
  return { kind: 'regression', n, unpredicted: outcomes.length - n, r2: r * r, q2, rmse, mae };
}

export function figuresOf(task: 'classification' | 'regression', outcomes: readonly Outcome[], classCount: number): Figures {
  return task === 'classification' ? classificationFigures(outcomes, classCount) : regressionFigures(outcomes);
}
