// k nearest neighbours (read-across): Tanimoto similarity on binary fingerprints,
// 1 / (1 + Euclidean distance) on standardised numeric features otherwise. Each
// prediction carries a confidence and an applicability-domain flag. Tanimoto comes from
// the search's kernel, the one similarity loop of the service.
import { FingerprintSet } from '../../search/fingerprintSet.ts';

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
  /** The neighbours that voted: training row and similarity, most similar first. */
  neighbours: Array<{ row: number; similarity: number }>;
}

export function packBits(row: readonly number[]): number[] {
  const words = new Array<number>(Math.ceil(row.length / 32)).fill(0);
  row.forEach((v, j) => { if (v) words[j >> 5]! |= 1 << (j & 31); });
  return words;
}

export function fitKnn(X: readonly (readonly number[])[], y: readonly number[], opt: { k: number; classes: number; minSimilarity: number }): KnnModel {
  const binary = X.every((r) => r.every((v) => v === 0 || v === 1));
  const cols = X[0]?.length ?? 0;
  const mean = new Array<number>(cols).fill(0);
  const sd = new Array<number>(cols).fill(1);
  if (!binary) {
    for (let j = 0; j < cols; j++) {
      const col = X.map((r) => r[j]!);
      const mj = col.reduce((s, v) => s + v, 0) / col.length;
      mean[j] = mj;
      sd[j] = Math.sqrt(col.reduce((s, v) => s + (v - mj) ** 2, 0) / col.length) || 1;
    }
  }
  const rows = X.map((r) => (binary ? packBits(r) : r.map((v, j) => (v - mean[j]!) / sd[j]!)));
  return { ...opt, binary, rows, y: [...y], mean, sd };
}

/** Training rows laid out for fast scans, built once per model object. */
interface Prepared { fingerprints: FingerprintSet | undefined; width: number; values: Float64Array }
const prepared = new WeakMap<KnnModel, Prepared>();

function prepare(m: KnnModel): Prepared {
  let p = prepared.get(m);
  if (p) return p;
  const width = m.rows[0]?.length ?? 0;
  const n = m.rows.length;
  p = { fingerprints: m.binary ? new FingerprintSet(width, n) : undefined, width, values: new Float64Array(m.binary ? 0 : n * width) };
  for (let i = 0; i < n; i++) {
    const row = m.rows[i]!;
    if (p.fingerprints) p.fingerprints.set(i, row);
    else for (let j = 0; j < width; j++) p.values[i * width + j] = row[j]!;
  }
  prepared.set(m, p);
  return p;
}

/** Similarity of the query to every training row. */
function similarities(m: KnnModel, p: Prepared, q: readonly number[]): Float64Array {
  if (p.fingerprints) return p.fingerprints.all(q);
  const n = m.rows.length;
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let d = 0;
    const o = i * p.width;
    for (let j = 0; j < p.width; j++) d += (q[j]! - p.values[o + j]!) ** 2;
    out[i] = 1 / (1 + Math.sqrt(d));
  }
  return out;
}

/** Indices of the k largest similarities, largest first (partial selection, no full sort). */
function topK(sims: Float64Array, k: number): number[] {
  const best: number[] = [];
  for (let i = 0; i < sims.length; i++) {
    if (best.length === k && sims[i]! <= sims[best[k - 1]!]!) continue;
    let at = best.length === k ? k - 1 : best.length;
    if (best.length < k) best.push(i);
    while (at > 0 && sims[best[at - 1]!]! < sims[i]!) { best[at] = best[at - 1]!; at--; }
    best[at] = i;
  }
  return best;
}

/** Similarity of a raw (unpacked, unscaled) row to every training row. */
export function similarityVector(m: KnnModel, x: readonly number[]): Float64Array {
  const q = m.binary ? packBits(x) : x.map((v, j) => (v - m.mean[j]!) / m.sd[j]!);
  return similarities(m, prepare(m), q);
}

export function predictKnn(m: KnnModel, x: readonly number[]): KnnPrediction {
  const sims = similarityVector(m, x);
  const near = topK(sims, Math.min(m.k, sims.length)).map((i) => ({ i, s: sims[i]! }));
  const maxSimilarity = near[0]?.s ?? 0;
  const meanSim = near.reduce((s, n) => s + n.s, 0) / (near.length || 1);
  // Weights never all vanish, so identical-distance ties still vote.
  const weights = near.map((n) => n.s + 1e-9);
  const total = weights.reduce((s, w) => s + w, 0);
  const inDomain = maxSimilarity >= m.minSimilarity;
  const neighbours = near.map((n) => ({ row: n.i, similarity: n.s }));
  if (m.classes === 0) {
    const value = near.reduce((s, n, t) => s + weights[t]! * m.y[n.i]!, 0) / total;
    return { value, confidence: meanSim, maxSimilarity, inDomain, neighbours };
  }
  const probabilities = new Array<number>(m.classes).fill(0);
  near.forEach((n, t) => { probabilities[m.y[n.i]!]! += weights[t]! / total; });
  const value = probabilities.indexOf(Math.max(...probabilities));
  return { value, probabilities, confidence: probabilities[value]! * meanSim, maxSimilarity, inDomain, neighbours };
}
