// k-fold partitions for cross-validation; stratified by class for classification so
// every fold keeps the class balance of the training set.
import { seededRng, shuffled } from './rng.ts';

/** fold[i] = index of the fold row i is tested in (0..k-1). */
export function assignFolds(y: readonly number[], k: number, seed: number, stratified: boolean): number[] {
  const rng = seededRng(seed);
  const fold = new Array<number>(y.length).fill(0);
  const groups = new Map<number, number[]>();
  y.forEach((v, i) => {
    const key = stratified ? v : 0;
    const g = groups.get(key) ?? [];
    g.push(i);
    groups.set(key, g);
  });
  let offset = 0;
  for (const key of [...groups.keys()].sort((a, b) => a - b)) {
    shuffled(groups.get(key)!, rng).forEach((row, n) => { fold[row] = (n + offset) % k; });
    offset += groups.get(key)!.length;
  }
  return fold;
}
