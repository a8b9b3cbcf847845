// The prose of a QMRF that the service can write itself: the model's equation, its
// applicability domain, its figures. What only the author knows is TO_COMPLETE, visibly.
import type { Forest } from '../../algorithms/ml/forest.ts';
import type { KnnModel } from '../../algorithms/ml/knn.ts';
import type { LogisticModel } from '../../algorithms/ml/logistic.ts';
import type { ClassificationStats, RegressionStats } from '../../algorithms/ml/metrics.ts';
import type { TrainedModel } from '../../algorithms/learning/model.ts';
import { inputColumns } from './onnxExport.ts';
import type { ValidationFact } from './qmrfFacts.ts';

export const TO_COMPLETE = '[to be completed by the author]';

const fmt = (v: number) => (Number.isFinite(v) ? String(Number(v.toPrecision(4))) : 'undefined');

const FIGURE_NAMES: Record<string, string> = {
  numInstances: 'n', numUnpredicted: 'not predicted', percentCorrect: 'accuracy (%)', balancedAccuracy: 'balanced accuracy',
  truePositiveRate: 'sensitivity', trueNegativeRate: 'specificity', matthewsCorrelationCoefficient: 'MCC', areaUnderRoc: 'AUC',
  rSquare: 'R²', qSquare: 'Q²', rootMeanSquaredError: 'RMSE', meanAbsoluteError: 'MAE',
};

export function figuresText(figures: ReadonlyArray<readonly [string, number]>): string {
  return figures.map(([k, v]) => `${FIGURE_NAMES[k] ?? k} ${fmt(v)}`).join(', ');
}

export function validationText(v: ValidationFact): string {
  const what = v.type === 'crossvalidation' ? `${v.folds ?? '?'}-fold cross-validation` : v.type === 'training_test_split' ? 'training/test split' : 'external test set';
  return `${what} ${v.uri}${v.date ? ` (${v.date.slice(0, 10)})` : ''}${v.dataset ? ` on ${v.dataset}` : ''}: ${figuresText(v.figures) || 'no figures stored'}.`;
}

/** The cross-validation computed with the model itself (its representation's crossvalidationInfo). */
export function ownCrossvalidation(m: TrainedModel): string | undefined {
  const v = m.validation;
  if (!v) return undefined;
  const s = v.stats;
  const figures: Array<[string, number]> = m.task === 'classification'
    ? [['numInstances', s.n], ['percentCorrect', 100 * (s as ClassificationStats).accuracy], ['balancedAccuracy', (s as ClassificationStats).balancedAccuracy], ['areaUnderRoc', (s as ClassificationStats).auc]]
    : [['numInstances', s.n], ['rSquare', (s as RegressionStats).r2], ['rootMeanSquaredError', (s as RegressionStats).rmse], ['meanAbsoluteError', (s as RegressionStats).mae]];
  return `${v.folds}-fold cross-validation computed when the model was built (folds drawn with seed ${v.seed}${m.task === 'classification' ? ', stratified by class' : ''}): ${figuresText(figures)}.`;
}

/** The model's computation, with its coefficients where it has a closed form. */
export function equationOf(m: TrainedModel | undefined, target: string): string {
  if (!m) return TO_COMPLETE;
  const names = inputColumns(m.representation).map((c) => c.name);
  const similarity = (k: KnnModel) => (k.binary ? 'Tanimoto similarity of the 0/1 vectors' : 'similarity 1/(1 + Euclidean distance) of the descriptors standardised by the training mean and standard deviation');
  switch (m.learner) {
    case 'linearRegression': {
      const w = (m.state as { weights: number[][] }).weights;
      const terms = names.map((n, j) => `${fmt(w[j]![0]!)} × [${n}]`);
      return `${target} = ${fmt(w[names.length]![0]!)} + ${terms.join(' + ')} (ordinary least squares with an intercept; coefficients rounded to 4 significant digits, exact values in the ONNX export)`;
    }
    case 'logisticRegression': {
      const l = m.state as LogisticModel;
      return `P(class) = 1 / (1 + exp(-(b0 + Σ bj × zj))), zj = (xj - mean_j) / sd_j over the training set; ${l.classes === 2 ? `one model for class ${m.classes[1]}` : `one-vs-rest over ${l.classes} classes, probabilities normalised to sum 1`}; fitted by ${String(m.params.iterations)} gradient-descent iterations with L2 penalty ${String(m.params.l2)}. Predicted class: the most probable.`;
    }
    case 'randomForest': {
      const f = m.state as Forest;
      return `${f.trees.length} CART trees, each grown on a bootstrap sample with ${String(m.params.mtry) === '0' ? (m.task === 'classification' ? '√p' : 'p/3') : String(m.params.mtry)} of the p descriptors tried per split; the prediction is the mean over the trees of ${f.classes ? 'the class frequencies of the leaf reached (predicted class: the most probable)' : 'the mean value of the leaf reached'}.`;
    }
    case 'knn': {
      const k = m.state as KnnModel;
      return `The ${k.k} training compounds most similar to the query (${similarity(k)}), weighted by similarity + 1e-9: ${k.classes ? 'the class with the largest weighted vote' : 'the weighted mean of their measured values'}.`;
    }
    default: return TO_COMPLETE;
  }
}

/** 5.1, 5.2, 5.4: what the model itself says about its domain. */
export function domainOf(m: TrainedModel | undefined, base: string): { description: string; method: string; limits: string } {
  if (m?.learner === 'knn') {
    const k = m.state as KnnModel;
    const sim = k.binary ? 'Tanimoto similarity' : 'similarity 1/(1 + Euclidean distance) on standardised descriptors';
    return {
      description: `Every prediction states whether the query compound is inside the domain: its most similar training compound has a ${sim} of at least ${k.minSimilarity}.`,
      method: `Similarity to the nearest training compound (${sim}); a confidence (vote share × mean neighbour similarity) accompanies each prediction.`,
      limits: `Nearest-neighbour similarity ≥ ${k.minSimilarity} (parameter min_similarity).`,
    };
  }
  return {
    description: `This model states no applicability domain of its own. ${base}/algorithm/applicability-domain builds one from its training dataset: 1 - mean similarity to the k nearest training compounds, within a percentile of the training compounds' own distances. ${TO_COMPLETE}`,
    method: TO_COMPLETE,
    limits: TO_COMPLETE,
  };
}
