// k nearest neighbours (read-across): Tanimoto similarity on binary fingerprints,
// 1 / (1 + Euclidean distance) on standardised numeric features otherwise. Each
// prediction carries a confidence and an applicability-domain flag (issue #6).

export interface KnnModel {
  k: number;
  classes: number;
  /** Similarity to the nearest training compound below which a query is out of domain. */
  minSimilarity: number;
  binary: boolean;
  /** Training rows: packed 32-bit words (binary) or standardised values. */
  rows: number[][];
  y: number[];
  /** Column means and standard deviations used to standardise numeric rows. */
  mean: number[];
  sd: number[];
}

export interface KnnPrediction {
  /** Class index, or the predicted value for regression. */
  value: number;
  /** Class probabilities (classification). */
  probabilities?: number[];
  /** Vote share of the predicted class times mean neighbour similarity (0-1). */
  confidence: number;
  /** Similarity of the nearest training compound. */
  maxSimilarity: number;
  inDomain: boolean;
}

export function packBits(row: readonly number[]): number[] {
  const words = new Array<number>(Math.ceil(row.length / 32)).fill(0);
  row.forEach((v, j) => { if (v) words[j >> 5] |= 1 << (j & 31); });
  return words;
}

function popcount(v: number): number {
  v -= (v >>> 1) & 0x55555555;
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24);
}

export function tanimoto(a: readonly number[], b: readonly number[]): number {
  let both = 0;
  let either = 0;
  for (let i = 0; i < a.length; i++) { both += popcount(a[i] & b[i]); either += popcount(a[i] | b[i]); }
  return either === 0 ? 1 : both / either;
}

export function fitKnn(X: readonly (readonly number[])[], y: readonly number[], opt: { k: number; classes: number; minSimilarity: number }): KnnModel {
  const binary = X.every((r) => r.every((v) => v === 0 || v === 1));
  const cols = X[0]?.length ?? 0;
  const mean = new Array<number>(cols).fill(0);
  const sd = new Array<number>(cols).fill(1);
  if (!binary) {
    for (let j = 0; j < cols; j++) {
      const col = X.map((r) => r[j]);
      mean[j] = col.reduce((s, v) => s + v, 0) / col.length;
      sd[j] = Math.sqrt(col.reduce((s, v) => s + (v - mean[j]) ** 2, 0) / col.length) || 1;
    }
  }
  const rows = X.map((r) => (binary ? packBits(r) : r.map((v, j) => (v - mean[j]) / sd[j])));
  return { ...opt, binary, rows, y: [...y], mean, sd };
}

function similarity(m: KnnModel, q: readonly number[], row: readonly number[]): number {
  if (m.binary) return tanimoto(q, row);
  let d = 0;
  for (let j = 0; j < q.length; j++) d += (q[j] - row[j]) ** 2;
  return 1 / (1 + Math.sqrt(d));
}

export function predictKnn(m: KnnModel, x: readonly number[]): KnnPrediction {
  const q = m.binary ? packBits(x) : x.map((v, j) => (v - m.mean[j]) / m.sd[j]);
  const sims = m.rows.map((r, i) => ({ i, s: similarity(m, q, r) }));
  sims.sort((a, b) => b.s - a.s);
  const near = sims.slice(0, Math.min(m.k, sims.length));
  const maxSimilarity = near[0]?.s ?? 0;
  const meanSim = near.reduce((s, n) => s + n.s, 0) / (near.length || 1);
  // Weights never all vanish, so identical-distance ties still vote.
  const weights = near.map((n) => n.s + 1e-9);
  const total = weights.reduce((s, w) => s + w, 0);
  const inDomain = maxSimilarity >= m.minSimilarity;
  if (m.classes === 0) {
    const value = near.reduce((s, n, t) => s + weights[t] * m.y[n.i], 0) / total;
    return { value, confidence: meanSim, maxSimilarity, inDomain };
  }
  const probabilities = new Array<number>(m.classes).fill(0);
  near.forEach((n, t) => { probabilities[m.y[n.i]] += weights[t] / total; });
  const value = probabilities.indexOf(Math.max(...probabilities));
  return { value, probabilities, confidence: probabilities[value] * meanSim, maxSimilarity, inDomain };
}
