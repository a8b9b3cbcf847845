// Which compounds each model is tested on. Cross-validation uses the learners' own seeded
// fold assignment (src/algorithms/ml/folds.ts), so a model's built-in cross-validation and
// a validation resource with the same seed and fold count split alike; a training/test
// split shuffles each class with the same seeded generator and keeps `ratio` of it for
// training. Either way the same seed gives the same partition.
import { assignFolds } from '../algorithms/ml/folds.ts';
import { seededRng, shuffled } from '../algorithms/ml/rng.ts';

/** fold[i]: the fold row i is tested in (0..k-1), or -1 when it is only ever trained on. */
export type Partition = number[];

/**
 * k folds over rows whose labels are `y` (class indices when `stratified`). With fewer rows
 * than folds, every row is its own fold.
 */
export function crossvalidationFolds(y: readonly number[], k: number, seed: number, stratified: boolean): Partition {
  return assignFolds(y, Math.min(k, y.length), seed, stratified);
}

/** One test fold (0) holding about 1 − ratio of the rows, per class when `stratified`. */
export function trainingTestSplit(y: readonly number[], ratio: number, seed: number, stratified: boolean): Partition {
  const rng = seededRng(seed);
  const groups = new Map<number, number[]>();
  y.forEach((v, i) => {
    const key = stratified ? v : 0;
    groups.set(key, [...(groups.get(key) ?? []), i]);
  });
  const fold = new Array<number>(y.length).fill(-1);
  for (const key of [...groups.keys()].sort((a, b) => a - b)) {
    const rows = shuffled(groups.get(key)!, rng);
    const train = Math.round(ratio * rows.length);
    rows.slice(train).forEach((row) => { fold[row] = 0; });
  }
  return fold;
}

/** Number of test folds of a partition. */
export function foldCount(partition: Partition): number {
  return partition.reduce((m, f) => Math.max(m, f + 1), 0);
}
