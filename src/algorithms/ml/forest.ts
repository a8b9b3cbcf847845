// Random forest (Breiman 2001): bootstrap samples, one tree each, votes averaged.
// Our own trees (tree.ts) rather than ml-random-forest's, whose split search takes
// minutes on 4000 x 1024 fingerprints; the model is plain JSON either way. Each tree has
// a seed of its own, so a forest is the same whether its trees grow in one thread or in
// several (forestThreads.ts).
import { seededRng } from './rng.ts';
import { growTree, matrixOf, predictTree, type Matrix, type Tree } from './tree.ts';

export interface ForestOptions {
  /** Number of classes; 0 for regression. */
  classes: number;
  trees: number;
  /** Features tried at each split; 0 = sqrt(p) for classification, p/3 for regression. */
  mtry: number;
  maxDepth: number;
  minLeaf: number;
  seed: number;
  /** Per column, how many draws it counts as when a split picks its mtry candidates (tree.ts draws); 1 each when absent. */
  weights?: readonly number[];
}

export interface Forest {
  classes: number;
  trees: Tree[];
}

/** sqrt(p) or p/3 of the draws (a weighted column counted as often as its weight), as if the columns were repeated. */
export function mtryOf(opt: ForestOptions, cols: number): number {
  return opt.mtry > 0 ? Math.min(opt.mtry, cols) : Math.max(1, Math.round(opt.classes ? Math.sqrt(cols) : cols / 3));
}

/** Column j listed weights[j] times; undefined when every weight is 1. */
export function drawsOf(weights: readonly number[] | undefined): number[] | undefined {
  if (!weights || weights.every((v) => v === 1)) return undefined;
  return weights.flatMap((v, j) => Array<number>(Math.max(0, Math.round(v))).fill(j));
}

/** Tree `t` of a forest: its bootstrap sample and its splits drawn from its own seed. */
export function growForestTree(m: Matrix, y: Float64Array, opt: ForestOptions, t: number): Tree {
  const rng = seededRng((Math.imul(opt.seed, 0x9e3779b1) + t) >>> 0);
  const sample = new Int32Array(m.rows);
  for (let i = 0; i < m.rows; i++) sample[i] = Math.floor(rng() * m.rows);
  const draws = drawsOf(opt.weights);
  return growTree(m, y, sample, { classes: opt.classes, mtry: mtryOf(opt, draws?.length ?? m.cols), maxDepth: opt.maxDepth, minLeaf: opt.minLeaf, draws }, rng);
}

/** `progress` receives the fraction of trees grown after each tree. */
export function fitForest(X: readonly (readonly number[])[], y: readonly number[], opt: ForestOptions, progress?: (fraction: number) => void): Forest {
  const m = matrixOf(X, X[0]?.length ?? 0);
  const yy = Float64Array.from(y);
  const trees: Tree[] = [];
  for (let t = 0; t < opt.trees; t++) {
    trees.push(growForestTree(m, yy, opt, t));
    progress?.((t + 1) / opt.trees);
  }
  return { classes: opt.classes, trees };
}

/** Class probabilities (classification) or [mean] (regression), averaged over trees. */
export function predictForest(forest: Forest, x: ArrayLike<number>): number[] {
  const size = forest.classes || 1;
  const out = new Array<number>(size).fill(0);
  for (const tree of forest.trees) {
    const v = predictTree(tree, x);
    for (let c = 0; c < size; c++) out[c]! += v[c]!;
  }
  return out.map((v) => v / forest.trees.length);
}
