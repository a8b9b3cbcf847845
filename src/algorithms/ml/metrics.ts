// Quality figures of predictions: classification gets
// accuracy, balanced accuracy, AUC and confusion counts; regression R², RMSE and MAE.

export interface ClassificationStats {
  n: number;
  accuracy: number;
  balancedAccuracy: number;
  /** Area under the ROC curve of the positive (last) class; NaN when undefined. */
  auc: number;
  /** confusion[actual][predicted], classes in the order of `classes`. */
  confusion: number[][];
}

export interface RegressionStats {
  n: number;
  r2: number;
  rmse: number;
  mae: number;
}

export function classificationStats(actual: readonly number[], predicted: readonly number[], score: readonly number[], classCount: number): ClassificationStats {
  const confusion = Array.from({ length: classCount }, () => new Array<number>(classCount).fill(0));
  let correct = 0;
  actual.forEach((a, i) => {
    confusion[a]![predicted[i]!]!++;
    if (a === predicted[i]) correct++;
  });
  const recalls = confusion.map((row, c) => {
    const total = row.reduce((s, v) => s + v, 0);
    return total === 0 ? NaN : row[c]! / total;
  }).filter((r) => !Number.isNaN(r));
  return {
    n: actual.length,
    accuracy: actual.length ? correct / actual.length : NaN,
    balancedAccuracy: recalls.length ? recalls.reduce((s, v) => s + v, 0) / recalls.length : NaN,
    auc: classCount === 2 ? auc(actual.map((a) => a === 1), score) : NaN,
    confusion,
  };
}

/** AUC by the rank-sum (Mann-Whitney) formula, ties counted half. */
export function auc(positive: readonly boolean[], score: readonly number[]): number {
  const idx = score.map((_, i) => i).sort((a, b) => score[a]! - score[b]!);
  const ranks = new Array<number>(score.length);
  for (let i = 0; i < idx.length;) {
    let j = i;
    while (j + 1 < idx.length && score[idx[j + 1]!] === score[idx[i]!]) j++;
    for (let k = i; k <= j; k++) ranks[idx[k]!] = (i + j) / 2 + 1;
    i = j + 1;
  }
  const nPos = positive.filter(Boolean).length;
  const nNeg = positive.length - nPos;
  if (nPos === 0 || nNeg === 0) return NaN;
  const rankSum = positive.reduce((s, p, i) => (p ? s + ranks[i]! : s), 0);
  return (rankSum - (nPos * (nPos + 1)) / 2) / (nPos * nNeg);
}

export function regressionStats(actual: readonly number[], predicted: readonly number[]): RegressionStats {
  const n = actual.length;
  const mean = actual.reduce((s, v) => s + v, 0) / n;
  let ssRes = 0;
  let ssTot = 0;
  let abs = 0;
  actual.forEach((a, i) => {
    ssRes += (a - predicted[i]!) ** 2;
    ssTot += (a - mean) ** 2;
    abs += Math.abs(a - predicted[i]!);
  });
  return { n, r2: ssTot === 0 ? NaN : 1 - ssRes / ssTot, rmse: Math.sqrt(ssRes / n), mae: abs / n };
}
