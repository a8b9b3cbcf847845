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
  /**
   * The columns a split draws its candidates from, a column listed as often as its weight
   * (ranger's split.select.weights, as integers); every column once when absent.
   */
  draws?: ArrayLike<number>;
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

/**
 * A node waiting to be grown: its rows are idx[start..end); `counts` when handed down;
 * features[0..unusable) cannot split it (found so above it).
 */
interface Pending { node: number; start: number; end: number; depth: number; unusable: number; counts?: Counts }

/**
 * Grows a tree on the rows of `sample` (a bootstrap draw: a row may come several times).
 * Each distinct row is kept once with its multiplicity as a weight, as scikit-learn does,
 * which gives the same splits as the repeated rows at about 0.63 of the work.
 */
export function growTree(m: Matrix, y: Float64Array, sample: Int32Array, opt: TreeOptions, rng: Rng): Tree {
  const tree: Tree = { feature: [], threshold: [], left: [], right: [], value: [] };
  const w = new Float64Array(m.rows);
  for (const r of sample) w[r]!++;
  const idx = Int32Array.from({ length: m.rows }, (_, r) => r).filter((r) => w[r]! > 0);
  const features = opt.draws ? Int32Array.from(opt.draws) : Int32Array.from({ length: m.cols }, (_, j) => j);
  const pool = features.length;
  const stack: Pending[] = [];
  const newNode = () => {
    tree.feature.push(-1); tree.threshold.push(0); tree.left.push(-1); tree.right.push(-1); tree.value.push([]);
    return tree.feature.length - 1;
  };
  const width = Math.max(opt.classes, 2);
  const sparse = m.onesIdx ? new CountPool(m, width, y, w, opt.classes) : undefined;
  stack.push({ node: newNode(), start: 0, end: idx.length, depth: 0, unusable: 0, counts: sparse?.counted(idx, 0, idx.length) });
  while (stack.length) {
    const { node, start, end, depth, unusable: above, counts: handed } = stack.pop()!;
    const size = weightOf(w, idx, start, end);
    tree.value[node] = leafValue(y, w, idx, start, end, size, opt.classes);
    if (size < 2 * opt.minLeaf || depth >= opt.maxDepth || isPure(y, idx, start, end)) {
      if (handed) sparse!.release(handed);
      continue;
    }
    let best: Split | undefined;
    const counts = handed ?? sparse?.scratchCounts(idx, start, end);
    // As in scikit-learn, a drawn feature that cannot split the node (constant there, as
    // most fingerprint bits are deep in a tree) does not use up the mtry budget; nor can it
    // split any node below (a subset of the rows), so it moves to the unusable front of
    // `features` and is never drawn again in this subtree.
    let unusable = above;
    for (let k = unusable, tried = 0; tried < opt.mtry && k < pool; k++) {
      const r = k + Math.floor(rng() * (pool - k));
      const f = features[r]!;
      features[r] = features[k]!;
      features[k] = f;
      if (counts) {
        const score = sparse!.score(counts, f, size, opt);
        if (score === undefined) { features[k] = features[unusable]!; features[unusable++] = f; continue; }
        tried++;
        if (!best || score < best.score) best = { feature: f, threshold: 0.5, score };
        continue;
      }
      const s = m.binary[f] ? binarySplit(m, y, w, idx, start, end, f, size, opt) : sortedSplit(m, y, w, idx, start, end, f, opt);
      if (!s) { features[k] = features[unusable]!; features[unusable++] = f; continue; }
      tried++;
      if (!best || s.score < best.score) best = s;
    }
    if (counts && !handed) sparse!.clearScratch(idx, start, end);
    if (!best) {
      if (handed) sparse!.release(handed);
      continue;
    }
    let mid = start;
    for (let i = start; i < end; i++) {
      if (cell(m, idx[i]!, best.feature) <= best.threshold) { const t = idx[i]!; idx[i] = idx[mid]!; idx[mid] = t; mid++; }
    }
    tree.feature[node] = best.feature;
    tree.threshold[node] = best.threshold;
    tree.left[node] = newNode();
    tree.right[node] = newNode();
    const left: Pending = { node: tree.left[node], start, end: mid, depth: depth + 1, unusable };
    const right: Pending = { node: tree.right[node], start: mid, end, depth: depth + 1, unusable };
    if (handed) {
      // The larger child inherits the node's counts less the smaller child's rows (the
      // subtraction trick of histogram-based trees), so rows are counted about log n times
      // rather than once per level; the smaller child is counted afresh when it is large.
      const [small, large] = mid - start <= end - mid ? [left, right] : [right, left];
      sparse!.subtract(handed, idx, small.start, small.end);
      large.counts = handed;
      small.counts = sparse!.worthCounting(small.end - small.start) ? sparse!.counted(idx, small.start, small.end) : undefined;
    }
    stack.push(left, right);
  }
  return tree;
}

function weightOf(w: Float64Array, idx: Int32Array, start: number, end: number): number {
  let s = 0;
  for (let i = start; i < end; i++) s += w[idx[i]!]!;
  return s;
}

function isPure(y: Float64Array, idx: Int32Array, start: number, end: number): boolean {
  for (let i = start + 1; i < end; i++) if (y[idx[i]!] !== y[idx[start]!]) return false;
  return true;
}

function leafValue(y: Float64Array, w: Float64Array, idx: Int32Array, start: number, end: number, size: number, classes: number): number[] {
  if (classes === 0) {
    let s = 0;
    for (let i = start; i < end; i++) s += w[idx[i]!]! * y[idx[i]!]!;
    return [s / size];
  }
  const counts = new Array<number>(classes).fill(0);
  for (let i = start; i < end; i++) counts[y[idx[i]!]!]! += w[idx[i]!]!;
  return counts.map((c) => c / size);
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

function add(acc: Float64Array, yv: number, classes: number, wv: number): void {
  if (classes === 0) { acc[0]! += wv * yv; acc[1]! += wv * yv * yv; } else acc[yv]! += wv;
}

function binarySplit(m: Matrix, y: Float64Array, w: Float64Array, idx: Int32Array, start: number, end: number, f: number, size: number, opt: TreeOptions): Split | undefined {
  const width = Math.max(opt.classes, 2);
  const aL = new Float64Array(width);
  const aR = new Float64Array(width);
  let nL = 0;
  const col = f * m.rows;
  for (let i = start; i < end; i++) {
    const r = idx[i]!;
    if (m.data[col + r]! <= 0.5) { nL += w[r]!; add(aL, y[r]!, opt.classes, w[r]!); } else add(aR, y[r]!, opt.classes, w[r]!);
  }
  const nR = size - nL;
  if (nL < opt.minLeaf || nR < opt.minLeaf) return undefined;
  return { feature: f, threshold: 0.5, score: impurity(opt, nL, aL, nR, aR) };
}

/** Weighted statistics of the 1-side of every feature of a node (class counts, or sum and sum of squares), and of the whole node. */
interface Counts {
  n: Float64Array;
  stats: Float64Array;
  total: Float64Array;
}

/**
 * Counts over bit-packed rows for one tree: the rows' set bits (CSR) walked once per node
 * and added per feature. A node's counts are either handed down from its parent (reused
 * buffers, `counted`/`subtract`/`release`) or, for small nodes, made in one scratch buffer
 * that is cleared again by the same rows (`scratchCounts`/`clearScratch`).
 */
class CountPool {
  private readonly free: Counts[] = [];
  private readonly scratch: Counts;
  /** A node of more rows than this is cheaper counted into a buffer of its own than re-counted below. */
  private readonly threshold: number;

  constructor(private readonly m: Matrix, private readonly width: number, private readonly y: Float64Array, private readonly w: Float64Array, private readonly classes: number) {
    this.scratch = this.fresh();
    const perRow = Math.max(1, m.onesIdx!.length / Math.max(1, m.rows));
    this.threshold = (m.cols * (width + 1)) / (4 * perRow);
  }

  private fresh(): Counts {
    return { n: new Float64Array(this.m.cols), stats: new Float64Array(this.m.cols * this.width), total: new Float64Array(this.width) };
  }

  worthCounting(rows: number): boolean { return rows > this.threshold; }

  /** A buffer of its own holding the counts of idx[start..end). */
  counted(idx: Int32Array, start: number, end: number): Counts {
    const c = this.free.pop();
    if (c) { c.n.fill(0); c.stats.fill(0); c.total.fill(0); }
    const out = c ?? this.fresh();
    this.accumulate(out, idx, start, end, 1);
    return out;
  }

  subtract(c: Counts, idx: Int32Array, start: number, end: number): void { this.accumulate(c, idx, start, end, -1); }

  release(c: Counts): void { this.free.push(c); }

  scratchCounts(idx: Int32Array, start: number, end: number): Counts {
    this.scratch.total.fill(0);
    this.accumulate(this.scratch, idx, start, end, 1);
    return this.scratch;
  }

  /** Zeroes what scratchCounts wrote, touching only the node's features. */
  clearScratch(idx: Int32Array, start: number, end: number): void {
    const starts = this.m.onesStart!;
    const ones = this.m.onesIdx!;
    const { n, stats } = this.scratch;
    const width = this.width;
    for (let i = start; i < end; i++) {
      const r = idx[i]!;
      for (let k = starts[r]!, last = starts[r + 1]!; k < last; k++) {
        const f = ones[k]!;
        n[f] = 0;
        for (let s = f * width, e = s + width; s < e; s++) stats[s] = 0;
      }
    }
  }

  private accumulate(c: Counts, idx: Int32Array, start: number, end: number, sign: number): void {
    const starts = this.m.onesStart!;
    const ones = this.m.onesIdx!;
    const { n, stats, total } = c;
    const { y, w, width, classes } = this;
    for (let i = start; i < end; i++) {
      const r = idx[i]!;
      const yv = y[r]!;
      const wv = sign * w[r]!;
      add(total, yv, classes, wv);
      if (classes === 0) {
        const a = wv * yv;
        const b = a * yv;
        for (let k = starts[r]!, last = starts[r + 1]!; k < last; k++) {
          const f = ones[k]!;
          n[f]! += wv;
          stats[f * width]! += a;
          stats[f * width + 1]! += b;
        }
      } else {
        for (let k = starts[r]!, last = starts[r + 1]!; k < last; k++) {
          const f = ones[k]!;
          n[f]! += wv;
          stats[f * width + yv]! += wv;
        }
      }
    }
  }

  /** The impurity after splitting on feature `f`, from counts (the 1-side counted, the 0-side by difference); undefined when it cannot split. */
  score(c: Counts, f: number, size: number, opt: TreeOptions): number | undefined {
    const nR = c.n[f]!;
    const nL = size - nR;
    if (nL < opt.minLeaf || nR < opt.minLeaf) return undefined;
    const { stats, total } = c;
    const base = f * this.width;
    if (opt.classes === 0) {
      const sL = total[0]! - stats[base]!;
      const sR = stats[base]!;
      return (total[1]! - stats[base + 1]! - (sL * sL) / nL) + (stats[base + 1]! - (sR * sR) / nR);
    }
    // Gini, as impurity() computes it, without a view per call (this runs for every tried feature).
    let gL = 0;
    let gR = 0;
    for (let k = 0; k < opt.classes; k++) {
      const r = stats[base + k]!;
      const l = total[k]! - r;
      gL += l * l;
      gR += r * r;
    }
    return nL - gL / nL + (nR - gR / nR);
  }
}

function sortedSplit(m: Matrix, y: Float64Array, w: Float64Array, idx: Int32Array, start: number, end: number, f: number, opt: TreeOptions): Split | undefined {
  const col = f * m.rows;
  const rows = Array.from(idx.subarray(start, end)).sort((a, b) => m.data[col + a]! - m.data[col + b]!);
  const width = Math.max(opt.classes, 2);
  const aL = new Float64Array(width);
  const aR = new Float64Array(width);
  let size = 0;
  for (const r of rows) { add(aR, y[r]!, opt.classes, w[r]!); size += w[r]!; }
  let best: Split | undefined;
  let nL = 0;
  for (let i = 0; i < rows.length - 1; i++) {
    const r = rows[i]!;
    add(aL, y[r]!, opt.classes, w[r]!);
    add(aR, y[r]!, opt.classes, -w[r]!);
    nL += w[r]!;
    const v = m.data[col + r]!;
    const next = m.data[col + rows[i + 1]!]!;
    if (v === next || nL < opt.minLeaf || size - nL < opt.minLeaf) continue;
    const score = impurity(opt, nL, aL, size - nL, aR);
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
