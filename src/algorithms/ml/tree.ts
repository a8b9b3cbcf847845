// One CART tree over a column-major matrix, grown with a random subset of features at
// every node (Breiman's random forest). Binary columns, such as fingerprint bits, are split
// by counting instead of sorting, which keeps 4000 x 2048 fingerprints fast. A matrix of
// fingerprints is held bit-packed (one bit per value) with the set bits of each row listed
// (CSR): typed arrays only, so worker threads share it without copying.
import type { Rng } from './rng.ts';

export interface Matrix {
  rows: number;
  cols: number;
  /** Column-major: data[col * rows + row]; empty when every column is binary (see packed). */
  data: Float64Array;
  /** binary[col] when every value of the column is 0 or 1. */
  binary: Uint8Array;
  /** When every column is binary: rows bit-packed, `words` 32-bit words each. */
  packed?: Int32Array;
  words?: number;
  /** When every column is binary: the set columns of row r are onesIdx[onesStart[r]..onesStart[r+1]). */
  onesStart?: Int32Array;
  onesIdx?: Int32Array;
}

/** Value of column f in row r. */
function cell(m: Matrix, r: number, f: number): number {
  return m.packed ? (m.packed[r * m.words! + (f >> 5)]! >>> (f & 31)) & 1 : m.data[f * m.rows + r]!;
}

export interface TreeOptions {
  /** Number of classes; 0 for regression. */
  classes: number;
  mtry: number;
  maxDepth: number;
  minLeaf: number;
}

/** A grown tree as flat arrays; a leaf has feature -1 and its output at value[node]. */
export interface Tree {
  feature: number[];
  threshold: number[];
  left: number[];
  right: number[];
  /** Leaf outputs: class probabilities (classification) or [mean] (regression). */
  value: number[][];
}

export function matrixOf(rows: readonly (readonly number[])[], cols: number): Matrix {
  const n = rows.length;
  const binary = new Uint8Array(cols).fill(1);
  let set = 0;
  for (const r of rows) {
    for (let j = 0; j < cols; j++) {
      const v = r[j];
      if (v === 1) set++;
      else if (v !== 0) binary[j] = 0;
    }
  }
  if (binary.every((b) => b === 1)) {
    const words = Math.ceil(cols / 32);
    const packed = new Int32Array(n * words);
    const onesStart = new Int32Array(n + 1);
    const onesIdx = new Int32Array(set);
    let k = 0;
    rows.forEach((r, i) => {
      onesStart[i] = k;
      for (let j = 0; j < cols; j++) {
        if (r[j] === 1) { packed[i * words + (j >> 5)]! |= 1 << (j & 31); onesIdx[k++] = j; }
      }
    });
    onesStart[n] = k;
    return { rows: n, cols, data: new Float64Array(0), binary, packed, words, onesStart, onesIdx };
  }
  const data = new Float64Array(n * cols);
  rows.forEach((r, i) => { for (let j = 0; j < cols; j++) data[j * n + i] = r[j]!; });
  return { rows: n, cols, data, binary };
}

interface Split { feature: number; threshold: number; score: number }

export function growTree(m: Matrix, y: Float64Array, sample: Int32Array, opt: TreeOptions, rng: Rng): Tree {
  const tree: Tree = { feature: [], threshold: [], left: [], right: [], value: [] };
  const idx = Int32Array.from(sample);
  const features = Int32Array.from({ length: m.cols }, (_, j) => j);
  const stack: Array<{ node: number; start: number; end: number; depth: number }> = [];
  const newNode = () => {
    tree.feature.push(-1); tree.threshold.push(0); tree.left.push(-1); tree.right.push(-1); tree.value.push([]);
    return tree.feature.length - 1;
  };
  const buffers = m.onesIdx ? newCounts(m.cols, Math.max(opt.classes, 2)) : undefined;
  stack.push({ node: newNode(), start: 0, end: idx.length, depth: 0 });
  while (stack.length) {
    const { node, start, end, depth } = stack.pop()!;
    tree.value[node] = leafValue(y, idx, start, end, opt.classes);
    if (end - start < 2 * opt.minLeaf || depth >= opt.maxDepth || isPure(y, idx, start, end)) continue;
    let best: Split | undefined;
    const counts = buffers ? sparseCounts(buffers, m, y, idx, start, end, opt) : undefined;
    // As in scikit-learn, a drawn feature that cannot split the node (constant there, as
    // most fingerprint bits are deep in a tree) does not use up the mtry budget.
    for (let k = 0, tried = 0; tried < opt.mtry && k < m.cols; k++) {
      const r = k + Math.floor(rng() * (m.cols - k));
      const f = features[r]!;
      features[r] = features[k]!;
      features[k] = f;
      const s = counts ? countedSplit(counts, f, end - start, opt) : m.binary[f] ? binarySplit(m, y, idx, start, end, f, opt) : sortedSplit(m, y, idx, start, end, f, opt);
      if (!s) continue;
      tried++;
      if (!best || s.score < best.score) best = s;
    }
    if (counts) clearCounts(counts, m, idx, start, end);
    if (!best) continue;
    let mid = start;
    for (let i = start; i < end; i++) {
      if (cell(m, idx[i]!, best.feature) <= best.threshold) { const t = idx[i]!; idx[i] = idx[mid]!; idx[mid] = t; mid++; }
    }
    tree.feature[node] = best.feature;
    tree.threshold[node] = best.threshold;
    tree.left[node] = newNode();
    tree.right[node] = newNode();
    stack.push({ node: tree.left[node], start, end: mid, depth: depth + 1 });
    stack.push({ node: tree.right[node], start: mid, end, depth: depth + 1 });
  }
  return tree;
}

function isPure(y: Float64Array, idx: Int32Array, start: number, end: number): boolean {
  for (let i = start + 1; i < end; i++) if (y[idx[i]!] !== y[idx[start]!]) return false;
  return true;
}

function leafValue(y: Float64Array, idx: Int32Array, start: number, end: number, classes: number): number[] {
  const n = end - start;
  if (classes === 0) {
    let s = 0;
    for (let i = start; i < end; i++) s += y[idx[i]!]!;
    return [s / n];
  }
  const counts = new Array<number>(classes).fill(0);
  for (let i = start; i < end; i++) counts[y[idx[i]!]!]!++;
  return counts.map((c) => c / n);
}

/** Weighted impurity of two sides given sufficient statistics (lower is better). */
function impurity(opt: TreeOptions, nL: number, aL: Float64Array, nR: number, aR: Float64Array): number {
  if (opt.classes === 0) {
    // Sum of squared errors = sumSq - sum²/n on each side; aX = [sum, sumSq].
    return (aL[1]! - (aL[0]! * aL[0]!) / nL) + (aR[1]! - (aR[0]! * aR[0]!) / nR);
  }
  let gL = 0;
  let gR = 0;
  for (let c = 0; c < opt.classes; c++) { gL += aL[c]! * aL[c]!; gR += aR[c]! * aR[c]!; }
  return nL - gL / nL + (nR - gR / nR);
}

function add(acc: Float64Array, yv: number, classes: number, sign: number): void {
  if (classes === 0) { acc[0]! += sign * yv; acc[1]! += sign * yv * yv; } else acc[yv]! += sign;
}

function binarySplit(m: Matrix, y: Float64Array, idx: Int32Array, start: number, end: number, f: number, opt: TreeOptions): Split | undefined {
  const size = Math.max(opt.classes, 2);
  const aL = new Float64Array(size);
  const aR = new Float64Array(size);
  let nL = 0;
  const col = f * m.rows;
  for (let i = start; i < end; i++) {
    const r = idx[i]!;
    if (m.data[col + r]! <= 0.5) { nL++; add(aL, y[r]!, opt.classes, 1); } else add(aR, y[r]!, opt.classes, 1);
  }
  const nR = end - start - nL;
  if (nL < opt.minLeaf || nR < opt.minLeaf) return undefined;
  return { feature: f, threshold: 0.5, score: impurity(opt, nL, aL, nR, aR) };
}

interface Counts {
  /** Per feature: rows with a 1, and their statistics (class counts, or sum and sum of squares). */
  n: Int32Array;
  stats: Float64Array;
  total: Float64Array;
  scratch: Float64Array;
  width: number;
}

function newCounts(cols: number, width: number): Counts {
  return { n: new Int32Array(cols), stats: new Float64Array(cols * width), total: new Float64Array(width), scratch: new Float64Array(width), width };
}

/** Statistics of the 1-side of every feature in one pass over the node's sparse rows. */
function sparseCounts(c: Counts, m: Matrix, y: Float64Array, idx: Int32Array, start: number, end: number, opt: TreeOptions): Counts {
  const { n, stats, total, width } = c;
  const starts = m.onesStart!;
  const ones = m.onesIdx!;
  total.fill(0);
  for (let i = start; i < end; i++) {
    const r = idx[i]!;
    const yv = y[r]!;
    add(total, yv, opt.classes, 1);
    for (let k = starts[r]!, last = starts[r + 1]!; k < last; k++) {
      const f = ones[k]!;
      n[f]!++;
      if (opt.classes === 0) { stats[f * width]! += yv; stats[f * width + 1]! += yv * yv; } else stats[f * width + yv]!++;
    }
  }
  return c;
}

/** Zeroes what sparseCounts wrote, touching only the node's features (buffers are reused). */
function clearCounts(c: Counts, m: Matrix, idx: Int32Array, start: number, end: number): void {
  const starts = m.onesStart!;
  const ones = m.onesIdx!;
  const { n, stats, width } = c;
  for (let i = start; i < end; i++) {
    const r = idx[i]!;
    for (let k = starts[r]!, last = starts[r + 1]!; k < last; k++) {
      const f = ones[k]!;
      n[f] = 0;
      for (let w = f * width, e = w + width; w < e; w++) stats[w] = 0;
    }
  }
}

function countedSplit(c: Counts, f: number, size: number, opt: TreeOptions): Split | undefined {
  const nR = c.n[f]!;
  const nL = size - nR;
  if (nL < opt.minLeaf || nR < opt.minLeaf) return undefined;
  const aR = c.stats.subarray(f * c.width, (f + 1) * c.width);
  // Reused scratch: this is called for every tried feature of every node.
  const aL = c.scratch;
  for (let k = 0; k < c.width; k++) aL[k] = c.total[k]! - aR[k]!;
  return { feature: f, threshold: 0.5, score: impurity(opt, nL, aL, nR, aR) };
}

function sortedSplit(m: Matrix, y: Float64Array, idx: Int32Array, start: number, end: number, f: number, opt: TreeOptions): Split | undefined {
  const col = f * m.rows;
  const rows = Array.from(idx.subarray(start, end)).sort((a, b) => m.data[col + a]! - m.data[col + b]!);
  const size = Math.max(opt.classes, 2);
  const aL = new Float64Array(size);
  const aR = new Float64Array(size);
  for (const r of rows) add(aR, y[r]!, opt.classes, 1);
  let best: Split | undefined;
  const n = rows.length;
  for (let i = 0; i < n - 1; i++) {
    const yv = y[rows[i]!]!;
    add(aL, yv, opt.classes, 1);
    add(aR, yv, opt.classes, -1);
    const v = m.data[col + rows[i]!]!;
    const next = m.data[col + rows[i + 1]!]!;
    if (v === next || i + 1 < opt.minLeaf || n - i - 1 < opt.minLeaf) continue;
    const score = impurity(opt, i + 1, aL, n - i - 1, aR);
    // The midpoint of two neighbouring doubles can round up to `next`, which would send
    // every row left; `v` itself separates them then.
    const mid = (v + next) / 2;
    if (!best || score < best.score) best = { feature: f, threshold: mid < next ? mid : v, score };
  }
  return best;
}

export function predictTree(tree: Tree, x: ArrayLike<number>): number[] {
  let node = 0;
  // Node indices come from the tree's own arrays, which growTree fills in step.
  while (tree.feature[node]! >= 0) node = x[tree.feature[node]!]! <= tree.threshold[node]! ? tree.left[node]! : tree.right[node]!;
  return tree.value[node]!;
}
