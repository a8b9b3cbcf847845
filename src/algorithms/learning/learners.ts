// The learners behind the learning algorithms: each fits a JSON state from vectors and
// labels, and predicts from it. Class labels arrive as indices 0..classes-1.
import MLR from 'ml-regression-multivariate-linear';
import { predictForest, type Forest } from '../ml/forest.ts';
import { fitForestThreads } from '../ml/forestThreads.ts';
import { fitKnn, predictKnn, type KnnModel } from '../ml/knn.ts';
import { fitLogistic, predictLogistic, type LogisticModel } from '../ml/logistic.ts';
import { InternalError } from '../../errors.ts';
import type { ParamValues } from '../params.ts';
import type { LearningTask } from './model.ts';

export interface RawPrediction {
  /** Class index or value. */
  value: number;
  /** Probability of the positive (last) class, the score for AUC. */
  score?: number;
  /** Probability of each class (classification), the conformal scores' source. */
  probabilities?: number[];
  /** How hard the compound is to predict (regression, 0-1): normalises its conformal residual. */
  difficulty?: number;
  confidence?: number;
  inDomain?: boolean;
  /** Read-across: the training rows (in fit order) the prediction came from. */
  neighbours?: Array<{ row: number; similarity: number }>;
}

export interface Learner {
  tasks: readonly LearningTask[];
  /**
   * The learned state, as JSON (or a promise of it: a forest grows in worker threads).
   * `progress`, when given, receives the fraction of the fit done (per tree for a forest);
   * `weights`, per column, how often a forest draws it as a split candidate
   * (representation.ts drawWeights; the other learners ignore them).
   */
  fit: (X: number[][], y: number[], classes: number, params: ParamValues, progress?: (fraction: number) => void, weights?: readonly number[]) => unknown;
  predict: (state: unknown, X: number[][]) => RawPrediction[];
}

function fromProbabilities(p: number[]): RawPrediction {
  const value = p.indexOf(Math.max(...p));
  return { value, score: p[p.length - 1], confidence: p[value], probabilities: p };
}

const knn: Learner = {
  tasks: ['classification', 'regression'],
  fit: (X, y, classes, params) => fitKnn(X, y, { k: params.k as number, classes, minSimilarity: params.min_similarity as number }),
  predict: (state, X) => X.map((x) => {
    const p = predictKnn(state as KnnModel, x);
    return { value: p.value, score: p.probabilities?.[p.probabilities.length - 1], probabilities: p.probabilities, confidence: p.confidence, inDomain: p.inDomain, neighbours: p.neighbours,
      // A regression's confidence is the neighbours' mean similarity: far neighbours, wide interval.
      difficulty: (state as KnnModel).classes === 0 ? 1 - p.confidence : undefined };
  }),
};

const randomForest: Learner = {
  tasks: ['classification', 'regression'],
  fit: (X, y, classes, params, progress, weights) => fitForestThreads(X, y, {
    classes,
    trees: params.trees as number,
    mtry: params.mtry as number,
    maxDepth: params.max_depth as number,
    minLeaf: params.min_leaf as number,
    seed: params.seed as number,
    ...(weights ? { weights } : {}),
  }, progress),
  predict: (state, X) => X.map((x) => {
    const f = state as Forest;
    const out = predictForest(f, x);
    return f.classes ? fromProbabilities(out) : { value: out[0]! }; // a regression forest predicts one value
  }),
};

const linearRegression: Learner = {
  tasks: ['regression'],
  fit: (X, y) => new MLR(X, y.map((v) => [v]), { intercept: true, statistics: false }).toJSON(),
  predict: (state, X) => {
    const m = MLR.load(state as MLR.MLRModel);
    return X.map((x) => ({ value: m.predict(x)[0]! })); // fitted on one output column
  },
};

const logisticRegression: Learner = {
  tasks: ['classification'],
  fit: (X, y, classes, params) => fitLogistic(X, y, { classes, iterations: params.iterations as number, l2: params.l2 as number, learningRate: 0.5 }),
  predict: (state, X) => X.map((x) => fromProbabilities(predictLogistic(state as LogisticModel, x))),
};

export const LEARNERS: Record<string, Learner> = { knn, randomForest, linearRegression, logisticRegression };

/** The learner `id` names; ids come from the catalogue and stored models, so an unknown one is a broken invariant. */
export function learnerById(id: string): Learner {
  const learner = LEARNERS[id];
  if (learner === undefined) throw new InternalError(`no learner ${id}`);
  return learner;
}
