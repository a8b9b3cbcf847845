// The learning algorithms of the catalogue: each trains a model whose
// representation carries its cross-validated statistics (but for a validation's fold model,
// RunInput.crossvalidate).
import { ATYPE } from '../../rdf/vocab.ts';
import type { NamedNode } from 'n3';
import type { ParamDef } from '../params.ts';
import type { AlgorithmDef } from '../types.ts';
import { TOXICOPHORES } from '../../chem/toxicophores.ts';
import { REPRESENTATIONS } from './representation.ts';
import { learnerById } from './learners.ts';
import { MAX_INTEGER_CLASSES, taskOf, trainModel } from './trainer.ts';

// `folds` is bounded by the compounds only: the model is the product, its cross-validated
// statistics a by-product, and a class smaller than the folds still trains (a validation's
// num_folds, whose folds are the product, is bounded by the smallest class too).
function common(fallback: 'morgan' | 'descriptors'): ParamDef[] {
  return [
    { name: 'representation', type: 'string', default: 'auto', choices: REPRESENTATIONS, description: `What the model learns from: the dataset's numeric features (features), Morgan fingerprints (morgan), RDKit descriptors (descriptors), or auto (features when the dataset has any, else ${fallback})` },
    { name: 'radius', type: 'int', default: 2, min: 0, max: 6, description: 'Morgan fingerprint radius' },
    { name: 'bits', type: 'int', default: 2048, min: 64, max: 16384, description: 'Morgan fingerprint length in bits' },
    { name: 'folds', type: 'int', default: 5, min: 2, max: 20, off: 0, limitedBy: 'measured', description: 'Folds of the cross-validation reported with the model; its out-of-fold predictions calibrate the conformal intervals or p-values. 0 builds the model on every row without it: no cross-validated statistics, no conformal intervals or p-values' },
    { name: 'seed', type: 'int', default: 1, min: 0, max: 2147483647, description: 'Seed of the folds and of any randomness in training' },
    { name: 'task', type: 'string', default: 'auto', choices: ['auto', 'classification', 'regression'], description: `What to learn: auto follows prediction_feature's values as scikit-learn's type_of_target does (classes for an ot:NominalFeature, text, booleans, or at most ${MAX_INTEGER_CLASSES} distinct integers; regression for other numbers); the model states which it chose and why` },
  ];
}

function learning(id: string, learner: string, fallback: 'morgan' | 'descriptors', def: { title: string; description: string; types: NamedNode[]; params: ParamDef[] }): AlgorithmDef {
  return {
    id,
    ...def,
    params: [...def.params, ...common(fallback)],
    supervised: true,
    learns: true,
    // A target this learner cannot learn is a bad request, not a model-building failure.
    checkInput: (input) => { taskOf(input.table, input.target!, learnerById(learner).tasks, input.params.task as string); },
    run: async (input) => ({
      kind: 'model',
      model: await trainModel({ learner, table: input.table, target: input.target!, params: input.params, algorithmUri: input.algorithmUri, fallback, progress: input.progress, crossvalidate: input.crossvalidate }),
    }),
  };
}

export const knn = learning('knn', 'knn', 'morgan', {
  title: 'k-nearest neighbours read-across',
  description: 'Predicts from the k most similar training compounds (Tanimoto similarity of Morgan fingerprints, or 1/(1+Euclidean distance) on standardised numeric features), weighted by similarity; every prediction carries a confidence and an applicability-domain flag (nearest neighbour at least min_similarity).',
  types: [ATYPE.Classification, ATYPE.Regression, ATYPE.LazyLearning, ATYPE.SingleTarget, ATYPE.Supervised],
  params: [
    { name: 'k', type: 'int', default: 5, min: 1, max: 1000, limitedBy: 'measured', description: 'Number of neighbours' },
    { name: 'min_similarity', type: 'float', default: 0.3, min: 0, max: 1, description: 'Similarity of the nearest neighbour below which a compound is outside the applicability domain' },
  ],
});

export const randomForest = learning('random-forest', 'randomForest', 'morgan', {
  title: 'Random forest (classification and regression)',
  description: 'Breiman random forest of CART trees on bootstrap samples with mtry features tried per split; classification (Gini) for nominal or two-valued targets, regression (variance) otherwise.',
  types: [ATYPE.Classification, ATYPE.Regression, ATYPE.EagerLearning, ATYPE.SingleTarget, ATYPE.Supervised],
  params: [
    { name: 'trees', type: 'int', default: 100, min: 1, max: 2000, description: 'Number of trees' },
    { name: 'mtry', type: 'int', default: 0, min: 0, max: 100000, description: 'Features tried at each split; 0 means sqrt(p) for classification, p/3 for regression' },
    { name: 'max_depth', type: 'int', default: 40, min: 1, max: 200, description: 'Deepest tree level' },
    { name: 'min_leaf', type: 'int', default: 1, min: 1, max: 10000, description: 'Fewest training compounds in a leaf' },
    // The default was chosen on the inner cross-validation of kazius's training part (docs/models.md#quality).
    { name: 'maccs', type: 'boolean', default: true, description: 'With representation morgan (or auto on structures alone): append the 166 MACCS structural keys to the Morgan bits' },
    { name: 'toxicophores', type: 'boolean', default: false, description: `With representation morgan (or auto on structures alone): append a bit per Ames mutagenicity alert, ${TOXICOPHORES.length} SMARTS after the toxicophores of Kazius et al. (J. Med. Chem. 2005: aromatic nitro, aromatic amine, three-membered heterocycle, nitroso, azo-type, aliphatic halide, polycyclic aromatic...) and the alerts of Ashby & Tennant and Benigni & Bossa` },
    { name: 'toxicophore_weight', type: 'int', default: 5, min: 1, max: 100, description: 'With toxicophores: how many fingerprint bits each toxicophore counts as when a split draws its candidate features (as if repeated; mtry defaults to the square root of that total)' },
  ],
});

export const linearRegression = learning('mlr', 'linearRegression', 'descriptors', {
  title: 'Multiple linear regression',
  description: 'Ordinary least squares with an intercept (ml-regression-multivariate-linear) on numeric features or RDKit descriptors.',
  types: [ATYPE.Regression, ATYPE.EagerLearning, ATYPE.SingleTarget, ATYPE.Supervised],
  params: [],
});

export const logisticRegression = learning('logistic-regression', 'logisticRegression', 'descriptors', {
  title: 'Logistic regression',
  description: 'L2-regularised logistic regression (one-vs-rest for more than two classes) on standardised numeric features, RDKit descriptors or fingerprints.',
  types: [ATYPE.Classification, ATYPE.EagerLearning, ATYPE.SingleTarget, ATYPE.Supervised],
  params: [
    { name: 'iterations', type: 'int', default: 300, min: 1, max: 100000, description: 'Gradient descent iterations' },
    { name: 'l2', type: 'float', default: 0.001, min: 0, max: 100, description: 'L2 penalty of the weights' },
  ],
});
