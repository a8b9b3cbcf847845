// The bytes of the WebAssembly module behind every Tanimoto scan, emitted here so that
// nothing but TypeScript builds it. One function, in the text format:
//
//   (func (export "scan") (param $q $rows $counts $stride $from $to $a $need i32)
//         (param $thr f64) (param $outSlots $outSims $blocks $qBlocks $blockBytes i32) (result i32)
//     ;; for each slot in [from, to), of popcount b:
//     ;;   m = sum of min(qBlocks[k], blocks[slot][k]) over `blockBytes` bytes (16 at a time)
//     ;;   skip the slot if m < need[b] (a u16 table the caller writes for this query)
//     ;;   c = sum of i64.popcnt(q[i] & row[i]) over `stride` 64-bit words (4 at a time)
//     ;;   t = c / (a + b - c), or 1 when both fingerprints are empty
//     ;;   if t >= thr: outSlots[n] = slot; outSims[n] = t; n++
//     ;; answers n)
//
// Rows are `stride` 64-bit words long, stride a multiple of 4; counts are one u32 per row;
// blocks are one u8 popcount per 128 bits of a row, `blockBytes` (a multiple of 16) a row.
// Since popcnt(x & y) <= min(popcnt x, popcnt y) for every block, c <= m, and T rises with
// c: a slot whose bound m falls below the threshold cannot reach it, and is skipped reading
// 16 bytes instead of the row. need[b] is the least m whose m / (a + b - m), the same IEEE
// double division, reaches the threshold (0xffff for counts out of the Swamidass-Baldi
// range): one comparison a row, no division and no branch on the count.
// i64.popcnt is one instruction on current x86 and ARM cores (the WebAssembly core spec,
// section 4.3.2); i8x16.min_u and the pairwise widening adds are 128-bit SIMD (section 4.3.3).

const I32 = 0x7f;
const I64 = 0x7e;
const F64 = 0x7c;
const VOID = 0x40;
const V128 = 0x7b;
/** Prefix of the SIMD instructions; each is followed by its LEB128 opcode. */
const SIMD = 0xfd;

const op = {
  block: 0x02, loop: 0x03, if: 0x04, else: 0x05, end: 0x0b, br: 0x0c, brIf: 0x0d,
  get: 0x20, set: 0x21, tee: 0x22,
  i32Load: 0x28, i64Load: 0x29, i32Load16U: 0x2f, i32Store: 0x36, f64Store: 0x39,
  i32Const: 0x41, i64Const: 0x42, f64Const: 0x44,
  i32Eqz: 0x45, i32LtU: 0x49, i32GeU: 0x4f, f64Ge: 0x66,
  i32Add: 0x6a, i32Sub: 0x6b, i32Mul: 0x6c, i32Shl: 0x74,
  i64Popcnt: 0x7b, i64Add: 0x7c, i64And: 0x83,
  i32WrapI64: 0xa7, f64Div: 0xa3, f64ConvertI32U: 0xb8, select: 0x1b,
} as const;

const simd = {
  v128Load: [SIMD, 0x00], i8x16MinU: [SIMD, 0x77], i32x4ExtractLane: [SIMD, 0x1b], i32x4Splat: [SIMD, 0x11], i32x4Add: [SIMD, 0xae, 0x01],
  i16x8ExtaddPairwiseI8x16U: [SIMD, 0x7d], i32x4ExtaddPairwiseI16x8U: [SIMD, 0x7f],
} as const;

/** Unsigned LEB128 (the encoding of every count and index in a module). */
function uleb(n: number): number[] {
  const out: number[] = [];
  do {
    let byte = n & 0x7f;
    n >>>= 7;
    if (n !== 0) byte |= 0x80;
    out.push(byte);
  } while (n !== 0);
  return out;
}

/** Signed LEB128, for small constants. */
function sleb(n: number): number[] {
  const out: number[] = [];
  for (;;) {
    const byte = n & 0x7f;
    n >>= 7;
    if ((n === 0 && (byte & 0x40) === 0) || (n === -1 && (byte & 0x40) !== 0)) return [...out, byte];
    out.push(byte | 0x80);
  }
}

const name = (s: string): number[] => [...uleb(s.length), ...Buffer.from(s, 'utf8')];
const section = (id: number, body: number[]): number[] => [id, ...uleb(body.length), ...body];
const vec = (items: number[][]): number[] => [...uleb(items.length), ...items.flat()];
/** Memory access immediate: alignment (log2 bytes) and offset. */
const mem = (align: number, offset = 0): number[] => [...uleb(align), ...uleb(offset)];

// Parameters, then locals, by index.
const [Q, ROWS, COUNTS, STRIDE, FROM, TO, A, NEED, THR, OUT_SLOTS, OUT_SIMS, BLOCKS, Q_BLOCKS, BLOCK_BYTES] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13];
const [SLOT, N, B, P, QP, END, M, C, CI, D, T, V] = [14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25];

/** c += popcnt(load(p + off) & load(qp + off)) */
function andPopcount(off: number): number[] {
  return [op.get, C, op.get, P, op.i64Load, ...mem(3, off), op.get, QP, op.i64Load, ...mem(3, off), op.i64And, op.i64Popcnt, op.i64Add, op.set, C];
}

/** m = the sum over the slot's blocks (one at least) of min(query block, row block); p, qp, end reused. */
function blockBound(): number[] {
  const lane = (i: number): number[] => [op.get, V, ...simd.i32x4ExtractLane, i];
  return [
    op.i32Const, ...sleb(0), ...simd.i32x4Splat, op.set, V,
    op.get, BLOCKS, op.get, SLOT, op.get, BLOCK_BYTES, op.i32Mul, op.i32Add, op.set, P,
    op.get, Q_BLOCKS, op.set, QP,
    op.get, Q_BLOCKS, op.get, BLOCK_BYTES, op.i32Add, op.set, END,
    op.loop, VOID,
    op.get, V, op.get, P, ...simd.v128Load, ...mem(4), op.get, QP, ...simd.v128Load, ...mem(4), ...simd.i8x16MinU,
    ...simd.i16x8ExtaddPairwiseI8x16U, ...simd.i32x4ExtaddPairwiseI16x8U, ...simd.i32x4Add, op.set, V,
    op.get, P, op.i32Const, ...sleb(16), op.i32Add, op.set, P,
    op.get, QP, op.i32Const, ...sleb(16), op.i32Add, op.tee, QP,
    op.get, END, op.i32LtU, op.brIf, 0, op.end,
    ...lane(0), ...lane(1), op.i32Add, ...lane(2), op.i32Add, ...lane(3), op.i32Add, op.set, M,
  ];
}

/** t = d == 0 ? 1 : c / d, of two i32 locals; leaves t on the stack. */
function tanimoto(c: number, d: number): number[] {
  return [
    op.f64Const, ...new Uint8Array(new Float64Array([1]).buffer),
    op.get, c, op.f64ConvertI32U, op.get, d, op.f64ConvertI32U, op.f64Div,
    op.get, d, op.i32Eqz, op.select,
  ];
}

function scanBody(): number[] {
  const inner = [
    // c = 0; p = rows + slot * stride * 8; qp = q; end = q + stride * 8
    op.i64Const, ...sleb(0), op.set, C,
    op.get, ROWS, op.get, SLOT, op.get, STRIDE, op.i32Mul, op.i32Const, ...sleb(3), op.i32Shl, op.i32Add, op.set, P,
    op.get, Q, op.set, QP,
    op.get, Q, op.get, STRIDE, op.i32Const, ...sleb(3), op.i32Shl, op.i32Add, op.set, END,
    op.loop, VOID,
    ...andPopcount(0), ...andPopcount(8), ...andPopcount(16), ...andPopcount(24),
    op.get, P, op.i32Const, ...sleb(32), op.i32Add, op.set, P,
    op.get, QP, op.i32Const, ...sleb(32), op.i32Add, op.tee, QP,
    op.get, END, op.i32LtU, op.brIf, 0, op.end,
    // d = a + b - c; t = d == 0 ? 1 : c / d
    op.get, C, op.i32WrapI64, op.set, CI,
    op.get, A, op.get, B, op.i32Add, op.get, CI, op.i32Sub, op.set, D,
    ...tanimoto(CI, D), op.set, T,
    op.get, T, op.get, THR, op.f64Ge,
    op.if, VOID,
    op.get, OUT_SLOTS, op.get, N, op.i32Const, ...sleb(2), op.i32Shl, op.i32Add, op.get, SLOT, op.i32Store, ...mem(2),
    op.get, OUT_SIMS, op.get, N, op.i32Const, ...sleb(3), op.i32Shl, op.i32Add, op.get, T, op.f64Store, ...mem(3),
    op.get, N, op.i32Const, ...sleb(1), op.i32Add, op.set, N,
    op.end,
  ];
  const code = [
    // The caller never scans an empty range: every loop runs at least once.
    op.get, FROM, op.set, SLOT,
    op.loop, VOID,
    // b = counts[slot]; if (m >= need[b]) { ... }
    op.get, COUNTS, op.get, SLOT, op.i32Const, ...sleb(2), op.i32Shl, op.i32Add, op.i32Load, ...mem(2), op.set, B,
    ...blockBound(),
    op.get, M, op.get, NEED, op.get, B, op.i32Const, ...sleb(1), op.i32Shl, op.i32Add, op.i32Load16U, ...mem(1), op.i32GeU,
    op.if, VOID, ...inner, op.end,
    op.get, SLOT, op.i32Const, ...sleb(1), op.i32Add, op.tee, SLOT,
    op.get, TO, op.i32LtU, op.brIf, 0, op.end,
    op.get, N,
  ];
  // Locals: slot n b p qp end m (i32), c (i64), ci d (i32), t (f64), v (v128).
  const locals = vec([[7, I32], [1, I64], [2, I32], [1, F64], [1, V128]]);
  const body = [...locals, ...code, op.end];
  return [...uleb(body.length), ...body];
}

/** The module: imports its memory as env.memory and exports `scan`. */
export function tanimotoModuleBytes(): Uint8Array<ArrayBuffer> {
  const params = [I32, I32, I32, I32, I32, I32, I32, I32, F64, I32, I32, I32, I32, I32];
  const bytes = [
    0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
    ...section(1, vec([[0x60, ...uleb(params.length), ...params, 1, I32]])),
    ...section(2, vec([[...name('env'), ...name('memory'), 0x02, 0x00, 0x01]])),
    ...section(3, vec([[0]])),
    ...section(7, vec([[...name('scan'), 0x00, 0]])),
    ...section(10, vec([scanBody()])),
  ];
  return new Uint8Array(bytes);
}
