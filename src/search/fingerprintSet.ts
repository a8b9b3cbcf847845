// Binary fingerprints packed in WebAssembly memory with their popcounts, and the one
// Tanimoto scan over them: structure search, kNN, the applicability domain and validation
// all compare fingerprints here and nowhere else.
import { tanimotoModuleBytes } from './tanimotoWasm.ts';

const PAGE = 65_536;
/** Bytes of the fingerprint part of a row are a multiple of this (the scan does 4 words a turn). */
const ROW_ALIGN = 32;
/** Bits a block popcount covers, and blocks the scan bounds with at a time (one 128-bit vector of u8). */
const BLOCK_BITS = 128;
const BLOCK_ALIGN = 16;

type Scan = (q: number, rows: number, counts: number, stride: number, from: number, to: number, a: number, need: number, thr: number, outSlots: number, outSims: number, blocks: number, qBlocks: number, blockBytes: number) => number;

let compiled: WebAssembly.Module | undefined;

/** Set bits of one 32-bit word (SWAR popcount). */
export function popcount32(v: number): number {
  v -= (v >>> 1) & 0x55555555;
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/**
 * The least bound m (intersection count at most min(a, b)) for which m / (a + b - m), the
 * kernel's IEEE double Tanimoto, reaches `threshold`: the value is monotone in m, so rows
 * whose bound is below it cannot be hits. 0xffff when no m can.
 */
export function leastBound(a: number, b: number, threshold: number): number {
  const most = Math.min(a, b);
  const t = (m: number): number => (a + b - m === 0 ? 1 : m / (a + b - m));
  // m / (a + b - m) >= t  <=>  m >= t (a + b) / (1 + t); start just below it, then settle exactly.
  let m = Math.max(0, Math.floor((threshold * (a + b)) / (1 + threshold)) - 1);
  while (m > 0 && t(m - 1) >= threshold) m--;
  while (m <= most && t(m) < threshold) m++;
  return m > most ? 0xffff : m;
}

export interface TanimotoHits {
  /** Rows at or above the threshold, in row order. */
  rows: Uint32Array;
  similarities: Float64Array;
}

/**
 * Rows of `words` 32-bit words. Memory layout: the query and its block popcounts, one u32
 * popcount per row, the rows' block popcounts (one u8 per 128 bits, padded to BLOCK_ALIGN
 * bytes), the rows (padded to ROW_ALIGN bytes), then the scan's table of bounds (`leastBound`
 * by row popcount) and output; growing moves the block popcounts and the rows.
 */
export class FingerprintSet {
  private readonly rowBytes: number;
  private readonly blockBytes: number;
  private capacity = 0;
  private used = 0;
  private readonly memory = new WebAssembly.Memory({ initial: 1 });
  private readonly scanFn: Scan;
  private u32 = new Uint32Array(0);
  private u8 = new Uint8Array(0);
  private u16 = new Uint16Array(0);

  constructor(readonly words: number, capacity = 64) {
    this.rowBytes = Math.max(ROW_ALIGN, Math.ceil((words * 4) / ROW_ALIGN) * ROW_ALIGN);
    this.blockBytes = Math.ceil(this.rowBytes / (BLOCK_BITS / 8) / BLOCK_ALIGN) * BLOCK_ALIGN;
    compiled ??= new WebAssembly.Module(tanimotoModuleBytes());
    const instance = new WebAssembly.Instance(compiled, { env: { memory: this.memory } });
    this.scanFn = instance.exports.scan as Scan;
    this.reserve(capacity, 0);
  }

  /** Rows set so far (the end of a full scan). */
  get length(): number {
    return this.used;
  }

  /** Stores `words` values of `fp` from `offset` as row `row` (rows between stay empty). */
  set(row: number, fp: ArrayLike<number>, offset = 0): void {
    if (row >= this.capacity) this.reserve(Math.max(row + 1, Math.ceil(this.capacity * 1.5)), 0);
    const at = (this.rowsAt() + row * this.rowBytes) >>> 2;
    for (let i = 0; i < this.words; i++) this.u32[at + i] = fp[offset + i]! >>> 0;
    this.u32[(this.countsAt() >>> 2) + row] = this.countBlocks(at, this.blocksAt() + row * this.blockBytes);
    this.used = Math.max(this.used, row + 1);
  }

  /** Copies row `from` of `other` (a set of the same width) to row `row`. */
  copyRow(other: FingerprintSet, from: number, row: number): void {
    if (row >= this.capacity) this.reserve(Math.max(row + 1, Math.ceil(this.capacity * 1.5)), 0);
    this.u32.set(other.row(from), (this.rowsAt() + row * this.rowBytes) >>> 2);
    this.u8.set(other.u8.subarray(other.blocksAt() + from * other.blockBytes, other.blocksAt() + (from + 1) * other.blockBytes), this.blocksAt() + row * this.blockBytes);
    this.u32[(this.countsAt() >>> 2) + row] = other.count(from);
    this.used = Math.max(this.used, row + 1);
  }

  /** Empties a row: an empty fingerprint is never a search hit. */
  clear(row: number): void {
    if (row >= this.used) return;
    const at = (this.rowsAt() + row * this.rowBytes) >>> 2;
    this.u32.fill(0, at, at + this.words);
    this.u8.fill(0, this.blocksAt() + row * this.blockBytes, this.blocksAt() + (row + 1) * this.blockBytes);
    this.u32[(this.countsAt() >>> 2) + row] = 0;
  }

  /** Bytes of memory the set holds. */
  get byteLength(): number {
    return this.memory.buffer.byteLength;
  }

  /** Set bits of a row. */
  count(row: number): number {
    return this.u32[(this.countsAt() >>> 2) + row]!;
  }

  /** The words of a row (a view, valid until the set grows). */
  row(row: number): Uint32Array {
    const at = (this.rowsAt() + row * this.rowBytes) >>> 2;
    return this.u32.subarray(at, at + this.words);
  }

  /**
   * Rows in [from, to) whose Tanimoto similarity to `query` is at least `threshold` (> 0).
   * With a and b the popcounts, T = c / (a + b - c) <= min(a, b) / max(a, b) (Swamidass and
   * Baldi 2007), so rows whose count is out of [a t, a / t] are skipped without reading them.
   * The answer's arrays are views, valid until the next scan.
   */
  atLeast(query: ArrayLike<number>, threshold: number, from = 0, to = this.used): TanimotoHits {
    const a = this.putQuery(query);
    const low = Math.max(1, Math.ceil(a * threshold - 1e-9));
    const high = Math.floor(a / threshold + 1e-9);
    return this.scan(a, threshold, from, Math.min(to, this.used), low, high);
  }

  /** Tanimoto similarity of `query` to every row (1 between two empty fingerprints). */
  all(query: ArrayLike<number>): Float64Array {
    const a = this.putQuery(query);
    return this.scan(a, 0, 0, this.used, 0, 0xffffffff).similarities.slice();
  }

  private scan(a: number, threshold: number, from: number, to: number, low: number, high: number): TanimotoHits {
    if (to <= from) return { rows: new Uint32Array(0), similarities: new Float64Array(0) };
    const bits = this.rowBytes * 8;
    const need = this.rowsAt() + this.capacity * this.rowBytes;
    const outSlots = need + Math.ceil(((bits + 1) * 2) / 8) * 8;
    const outSims = outSlots + Math.ceil(((to - from) * 4) / 8) * 8;
    this.reserve(this.capacity, outSims + (to - from) * 8 - need);
    const table = this.u16.subarray(need >>> 1, (need >>> 1) + bits + 1);
    // Threshold 0 (every row, as kNN asks): every bound reaches it, no table to work out.
    table.fill(threshold <= 0 ? 0 : 0xffff);
    if (threshold > 0) for (let b = low; b <= Math.min(high, bits); b++) table[b] = leastBound(a, b, threshold);
    const n = this.scanFn(0, this.rowsAt(), this.countsAt(), this.rowBytes / 8, from, to, a, need, threshold, outSlots, outSims, this.blocksAt(), this.rowBytes, this.blockBytes);
    return { rows: new Uint32Array(this.memory.buffer, outSlots, n), similarities: new Float64Array(this.memory.buffer, outSims, n) };
  }

  /** Writes the query at address 0 (zero padded), its block popcounts after it; answers its popcount. */
  private putQuery(query: ArrayLike<number>): number {
    for (let i = 0; i < this.rowBytes / 4; i++) this.u32[i] = i < this.words ? query[i]! >>> 0 : 0;
    return this.countBlocks(0, this.rowBytes);
  }

  /** Writes the block popcounts of the row at u32 index `at` to byte `to`; answers their sum. */
  private countBlocks(at: number, to: number): number {
    const perBlock = BLOCK_BITS / 32;
    let count = 0;
    for (let k = 0; k < this.blockBytes; k++) {
      let c = 0;
      // Blocks past the row (padding to BLOCK_ALIGN) count 0.
      for (let i = k * perBlock; i < (k + 1) * perBlock && i < this.rowBytes / 4; i++) c += popcount32(this.u32[at + i]!);
      this.u8[to + k] = c;
      count += c;
    }
    return count;
  }

  private countsAt(): number {
    return this.rowBytes + this.blockBytes;
  }

  private blocksAt(capacity = this.capacity): number {
    return Math.ceil((this.countsAt() + capacity * 4) / BLOCK_ALIGN) * BLOCK_ALIGN;
  }

  private rowsAt(capacity = this.capacity): number {
    return Math.ceil((this.blocksAt(capacity) + capacity * this.blockBytes) / ROW_ALIGN) * ROW_ALIGN;
  }

  /** Makes room for `capacity` rows and `outBytes` of scan output after them. */
  private reserve(capacity: number, outBytes: number): void {
    const need = this.rowsAt(capacity) + capacity * this.rowBytes + outBytes;
    const have = this.memory.buffer.byteLength;
    if (need > have) this.memory.grow(Math.ceil((need - have) / PAGE));
    if (capacity !== this.capacity || this.u32.buffer !== this.memory.buffer) {
      const u32 = new Uint32Array(this.memory.buffer);
      const u8 = new Uint8Array(this.memory.buffer);
      if (capacity !== this.capacity) {
        // Rows, then block popcounts, move up (what is below them grew); copyWithin handles the overlap.
        const rows = this.rowsAt() >>> 2;
        u32.copyWithin(this.rowsAt(capacity) >>> 2, rows, rows + (this.used * this.rowBytes) / 4);
        u8.copyWithin(this.blocksAt(capacity), this.blocksAt(), this.blocksAt() + this.used * this.blockBytes);
        // Everything of the rows not set yet may hold old rows or an earlier scan's output.
        u32.fill(0, (this.countsAt() >>> 2) + this.used, this.blocksAt(capacity) >>> 2);
        u8.fill(0, this.blocksAt(capacity) + this.used * this.blockBytes, this.rowsAt(capacity));
        u32.fill(0, (this.rowsAt(capacity) + this.used * this.rowBytes) >>> 2, (this.rowsAt(capacity) + capacity * this.rowBytes) >>> 2);
        this.capacity = capacity;
      }
      this.u32 = u32;
      this.u8 = u8;
      this.u16 = new Uint16Array(this.memory.buffer);
    }
  }
}
