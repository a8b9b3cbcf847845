// The graphs of the learners this service trains, from their stored state: forests through
// TreeEnsembleClassifier/Regressor, logistic regression through Scaler + LinearClassifier
// (+ Normalizer), both of the ONNX-ML domain. MLR and kNN use standard operators in double
// precision: LinearRegressor holds 32-bit coefficients, and least squares on correlated
// descriptors (MW and exact mass) has large coefficients that cancel, so a float copy of
// them can miss the service's predictions.
import type { Forest } from '../../algorithms/ml/forest.ts';
import type { LogisticModel } from '../../algorithms/ml/logistic.ts';
import { attr, doubles, ELEM, node, strings, valueInfo, type OnnxNode, type Tensor, type ValueInfo } from './onnxProto.ts';

export const INPUT = 'X';
export const ML = 'ai.onnx.ml';

export interface GraphParts {
  node: OnnxNode[];
  initializer: Tensor[];
  output: ValueInfo[];
}

const labelOut = (doc: string) => valueInfo('label', ELEM.STRING, ['N'], doc);
const probabilitiesOut = (elem: number, classes: readonly string[]) => valueInfo('probabilities', elem, ['N', classes.length], `probability of each class, in the order ${JSON.stringify(classes)}`);

/**
 * The label of the most probable class, the first among equals as indexOf(max) picks it
 * (ArgMax without select_last_index). TreeEnsembleClassifier's own label is not used:
 * onnxruntime decides two classes by its own rule, which differs from the highest score.
 */
export const firstMostProbable = {
  node: [
    node('ArgMax', ['probabilities'], ['class_index'], [attr.int('axis', 1), attr.int('keepdims', 0)]),
    node('Gather', ['class_labels', 'class_index'], ['label'], [attr.int('axis', 0)]),
  ],
  initializer: (classes: readonly string[]): Tensor[] => [strings('class_labels', [classes.length], classes)],
};

/** One node list for all trees; threshold and leaf weights as double tensors (ONNX-ML v3). */
export function forestGraph(f: Forest, classes: readonly string[]): GraphParts {
  const n = { treeids: [] as number[], nodeids: [] as number[], featureids: [] as number[], modes: [] as string[], values: [] as number[], truenodeids: [] as number[], falsenodeids: [] as number[] };
  const leaf = { treeids: [] as number[], nodeids: [] as number[], ids: [] as number[], weights: [] as number[] };
  f.trees.forEach((tree, t) => {
    tree.feature.forEach((feature, id) => {
      const isLeaf = feature < 0;
      n.treeids.push(t); n.nodeids.push(id);
      n.featureids.push(isLeaf ? 0 : feature);
      // predictTree goes left when x <= threshold: the true branch of BRANCH_LEQ.
      n.modes.push(isLeaf ? 'LEAF' : 'BRANCH_LEQ');
      n.values.push(isLeaf ? 0 : tree.threshold[id]!);
      n.truenodeids.push(isLeaf ? 0 : tree.left[id]!);
      n.falsenodeids.push(isLeaf ? 0 : tree.right[id]!);
      if (!isLeaf) return;
      const out = tree.value[id]!;
      // Every class at every leaf (zeros too): the scores are the forest's mean class probabilities.
      out.forEach((v, c) => { leaf.treeids.push(t); leaf.nodeids.push(id); leaf.ids.push(c); leaf.weights.push(classes.length ? v / f.trees.length : v); });
    });
  });
  const nodes = [
    attr.ints('nodes_treeids', n.treeids), attr.ints('nodes_nodeids', n.nodeids), attr.ints('nodes_featureids', n.featureids),
    attr.strings('nodes_modes', n.modes), attr.tensor('nodes_values_as_tensor', doubles('', [n.values.length], n.values)),
    attr.ints('nodes_truenodeids', n.truenodeids), attr.ints('nodes_falsenodeids', n.falsenodeids),
  ];
  if (classes.length > 0) {
    return {
      node: [node('TreeEnsembleClassifier', [INPUT], ['ensemble_label', 'probabilities'], [
        ...nodes, attr.ints('class_treeids', leaf.treeids), attr.ints('class_nodeids', leaf.nodeids), attr.ints('class_ids', leaf.ids),
        attr.tensor('class_weights_as_tensor', doubles('', [leaf.weights.length], leaf.weights)), attr.strings('classlabels_strings', classes), attr.string('post_transform', 'NONE'),
      ], ML), ...firstMostProbable.node],
      initializer: firstMostProbable.initializer(classes),
      output: [labelOut('predicted class'), probabilitiesOut(ELEM.FLOAT, classes)],
    };
  }
  return {
    node: [node('TreeEnsembleRegressor', [INPUT], ['value'], [
      ...nodes, attr.ints('target_treeids', leaf.treeids), attr.ints('target_nodeids', leaf.nodeids), attr.ints('target_ids', leaf.ids),
      attr.tensor('target_weights_as_tensor', doubles('', [leaf.weights.length], leaf.weights)), attr.int('n_targets', 1),
      attr.string('aggregate_function', 'AVERAGE'), attr.string('post_transform', 'NONE'),
    ], ML)],
    initializer: [],
    output: [valueInfo('value', ELEM.FLOAT, ['N', 1], 'predicted value')],
  };
}

/**
 * Standardisation by Scaler, then one-vs-rest scores through the logistic function. Two
 * classes get the rows -w and w, whose sigmoids are 1-p and p, the service's probabilities;
 * more classes are normalised to sum 1, as predictLogistic does.
 */
export function logisticGraph(m: LogisticModel, classes: readonly string[]): GraphParts {
  const rows = m.classes === 2 ? [m.weights[0]!.map((w) => -w), m.weights[0]!] : m.weights;
  const linear = node('LinearClassifier', ['scaled'], ['label', m.classes === 2 ? 'probabilities' : 'scores'], [
    attr.floats('coefficients', rows.flatMap((w) => w.slice(1))), attr.floats('intercepts', rows.map((w) => w[0]!)),
    attr.strings('classlabels_strings', classes), attr.string('post_transform', 'LOGISTIC'),
  ], ML);
  const nodes = [node('Scaler', [INPUT], ['scaled'], [attr.floats('offset', m.mean), attr.floats('scale', m.sd.map((s) => 1 / s))], ML), linear];
  if (m.classes !== 2) nodes.push(node('Normalizer', ['scores'], ['probabilities'], [attr.string('norm', 'L1')], ML));
  return { node: nodes, initializer: [], output: [labelOut('predicted class'), probabilitiesOut(ELEM.FLOAT, classes)] };
}

/** ml-regression-multivariate-linear's weights: one row per input, the intercept last. */
export function linearGraph(weights: readonly (readonly number[])[], inputs: number): GraphParts {
  return {
    node: [node('MatMul', [INPUT, 'W'], ['xw']), node('Add', ['xw', 'B'], ['value'])],
    initializer: [doubles('W', [inputs, 1], weights.slice(0, inputs).map((r) => r[0]!)), doubles('B', [1], [weights[inputs]![0]!])],
    output: [valueInfo('value', ELEM.DOUBLE, ['N', 1], 'predicted value')],
  };
}
