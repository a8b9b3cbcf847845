// k nearest neighbours in standard ONNX operators, double precision throughout, computing
// what predictKnn computes: the similarity to every training row (Tanimoto on 0/1 vectors,
// 1/(1+Euclidean distance) on standardised values), the k most similar by TopK (which, like
// the service, puts the lower index first among equal values), weights similarity + 1e-9,
// and their weighted mean (regression) or weighted class vote.
import type { KnnModel } from '../../algorithms/ml/knn.ts';
import { firstMostProbable, INPUT, type GraphParts } from './onnxGraphs.ts';
import { attr, doubles, ELEM, int64s, node, valueInfo, type OnnxNode, type Tensor } from './onnxProto.ts';

/** The training rows as 0/1 or standardised values, one row of `inputs` per compound. */
function trainingRows(m: KnnModel, inputs: number): number[][] {
  if (!m.binary) return m.rows;
  return m.rows.map((words) => Array.from({ length: inputs }, (_, j) => (words[j >> 5]! >>> (j & 31)) & 1));
}

function similarityNodes(m: KnnModel, rows: number[][], inputs: number): { node: OnnxNode[]; initializer: Tensor[] } {
  const M = rows.length;
  if (m.binary) {
    const transposed = Array.from({ length: inputs }, (_, j) => rows.map((r) => r[j]!)).flat();
    return {
      node: [
        node('MatMul', [INPUT, 'train_t'], ['both']),
        node('ReduceSum', [INPUT, 'axis1'], ['query_bits'], [attr.int('keepdims', 1)]),
        node('Add', ['query_bits', 'train_bits'], ['bits_sum']),
        node('Sub', ['bits_sum', 'both'], ['either']),
        node('Div', ['both', 'either'], ['ratio']),
        node('Equal', ['either', 'zero'], ['empty']),
        // Two empty fingerprints are identical (tanimoto answers 1).
        node('Where', ['empty', 'one', 'ratio'], ['similarity']),
      ],
      initializer: [doubles('train_t', [inputs, M], transposed), doubles('train_bits', [1, M], rows.map((r) => r.reduce((s, v) => s + v, 0))), doubles('zero', [], [0])],
    };
  }
  return {
    node: [
      node('Sub', [INPUT, 'mean'], ['centred']),
      node('Div', ['centred', 'sd'], ['standard']),
      node('Unsqueeze', ['standard', 'axis1'], ['query']),
      node('Sub', ['query', 'train'], ['diff']),
      node('Mul', ['diff', 'diff'], ['squares']),
      node('ReduceSum', ['squares', 'axis2'], ['d2'], [attr.int('keepdims', 0)]),
      node('Sqrt', ['d2'], ['distance']),
      node('Add', ['one', 'distance'], ['one_plus']),
      node('Div', ['one', 'one_plus'], ['similarity']),
    ],
    initializer: [doubles('mean', [inputs], m.mean), doubles('sd', [inputs], m.sd), doubles('train', [1, M, inputs], rows.flat()), int64s('axis2', [1], [2])],
  };
}

export function knnGraph(m: KnnModel, classes: readonly string[], inputs: number): GraphParts {
  const rows = trainingRows(m, inputs);
  const sim = similarityNodes(m, rows, inputs);
  const k = Math.min(m.k, rows.length);
  const nodes: OnnxNode[] = [
    ...sim.node,
    node('TopK', ['similarity', 'k'], ['near', 'near_rows'], [attr.int('axis', 1), attr.int('largest', 1), attr.int('sorted', 1)]),
    node('Add', ['near', 'epsilon'], ['weights']),
    node('ReduceSum', ['weights', 'axis1'], ['total'], [attr.int('keepdims', 1)]),
    node('Slice', ['near', 'start0', 'end1', 'axis1'], ['max_similarity']),
    node('GreaterOrEqual', ['max_similarity', 'min_similarity'], ['in_domain']),
  ];
  const initializer: Tensor[] = [
    ...sim.initializer, doubles('one', [], [1]), int64s('k', [1], [k]), doubles('epsilon', [], [1e-9]), int64s('axis1', [1], [1]),
    int64s('start0', [1], [0]), int64s('end1', [1], [1]), doubles('min_similarity', [], [m.minSimilarity]),
  ];
  const domainOut = valueInfo('in_domain', 9, ['N', 1], `nearest neighbour at least ${m.minSimilarity} similar`); // 9: BOOL
  if (m.classes === 0) {
    nodes.push(node('Gather', ['train_y', 'near_rows'], ['near_y'], [attr.int('axis', 0)]), node('Mul', ['weights', 'near_y'], ['weighted']),
      node('ReduceSum', ['weighted', 'axis1'], ['weighted_sum'], [attr.int('keepdims', 1)]), node('Div', ['weighted_sum', 'total'], ['value']));
    initializer.push(doubles('train_y', [rows.length], m.y));
    return { node: nodes, initializer, output: [valueInfo('value', ELEM.DOUBLE, ['N', 1], 'predicted value'), domainOut] };
  }
  // predictKnn adds weight/total per neighbour: the shares are divided before they are summed.
  const onehot = m.y.flatMap((c) => Array.from({ length: m.classes }, (_, j) => (j === c ? 1 : 0)));
  nodes.push(
    node('Div', ['weights', 'total'], ['shares']),
    node('Unsqueeze', ['shares', 'axis2'], ['shares3']),
    node('Gather', ['train_classes', 'near_rows'], ['near_classes'], [attr.int('axis', 0)]),
    node('Mul', ['shares3', 'near_classes'], ['votes']),
    node('ReduceSum', ['votes', 'axis1'], ['probabilities'], [attr.int('keepdims', 0)]),
    ...firstMostProbable.node,
  );
  initializer.push(doubles('train_classes', [rows.length, m.classes], onehot), ...firstMostProbable.initializer(classes));
  if (!initializer.some((t) => t.name === 'axis2')) initializer.push(int64s('axis2', [1], [2]));
  return {
    node: nodes,
    initializer,
    output: [valueInfo('label', ELEM.STRING, ['N'], 'predicted class'), valueInfo('probabilities', ELEM.DOUBLE, ['N', classes.length], `vote share of each class, in the order ${JSON.stringify(classes)}`), domainOut],
  };
}
