// Logistic regression, one-vs-rest, on standardised features with an intercept and an L2
// penalty, fitted by full-batch gradient descent. Ours rather than ml-logistic-regression,
// which has no intercept, no scaling and 50,000 steps by default.

export interface LogisticModel {
  classes: number;
  mean: number[];
  sd: number[];
  /** weights[c] = [intercept, w1..wp] for class c against the rest. */
  weights: number[][];
}

export function fitLogistic(X: readonly (readonly number[])[], y: readonly number[], opt: { classes: number; iterations: number; l2: number; learningRate: number }): LogisticModel {
  const n = X.length;
  const p = X[0]?.length ?? 0;
  const mean = new Array<number>(p).fill(0);
  const sd = new Array<number>(p).fill(1);
  for (let j = 0; j < p; j++) {
    for (const r of X) mean[j]! += r[j]! / n;
    let v = 0;
    for (const r of X) v += (r[j]! - mean[j]!) ** 2 / n;
    sd[j] = Math.sqrt(v) || 1;
  }
  const Z = X.map((r) => r.map((v, j) => (v - mean[j]!) / sd[j]!));
  const binaryOnly = opt.classes === 2;
  const targets = binaryOnly ? [1] : Array.from({ length: opt.classes }, (_, c) => c);
  const weights = targets.map((c) => {
    const w = new Array<number>(p + 1).fill(0);
    const grad = new Array<number>(p + 1);
    for (let it = 0; it < opt.iterations; it++) {
      grad.fill(0);
      for (let i = 0; i < n; i++) {
        const err = sigmoid(dot(w, Z[i]!)) - (y[i] === c ? 1 : 0);
        grad[0]! += err;
        for (let j = 0; j < p; j++) grad[j + 1]! += err * Z[i]![j]!;
      }
      w[0]! -= (opt.learningRate * grad[0]!) / n;
      for (let j = 1; j <= p; j++) w[j]! -= opt.learningRate * (grad[j]! / n + opt.l2 * w[j]!);
    }
    return w;
  });
  return { classes: opt.classes, mean, sd, weights };
}

function dot(w: readonly number[], z: readonly number[]): number {
  let s = w[0]!;
  for (let j = 0; j < z.length; j++) s += w[j + 1]! * z[j]!;
  return s;
}

function sigmoid(t: number): number {
  return 1 / (1 + Math.exp(-t));
}

/** Class probabilities of one row. */
export function predictLogistic(m: LogisticModel, x: readonly number[]): number[] {
  const z = x.map((v, j) => (v - m.mean[j]!) / m.sd[j]!);
  if (m.classes === 2) {
    const p1 = sigmoid(dot(m.weights[0]!, z));
    return [1 - p1, p1];
  }
  const raw = m.weights.map((w) => sigmoid(dot(w, z)));
  const total = raw.reduce((s, v) => s + v, 0) || 1;
  return raw.map((v) => v / total);
}
