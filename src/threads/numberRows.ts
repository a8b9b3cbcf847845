// Rows of numbers between threads as one Float64Array, whose buffer is transferred (moved,
// not copied: src/tasks/worker.ts). Structured cloning a result of 500 rows × 200 numbers
// as arrays costs the receiving event loop tens of milliseconds in one go; a transferred
// buffer costs it nothing, and the rows are read from it as they are needed.

/** Rows of `width` cells, row-major; a missing cell (null) is marked in `missing`. */
export interface NumberRows {
  width: number;
  numbers: Float64Array;
  /** 1 where a cell is null; absent when none is. */
  missing?: Uint8Array;
}

/** The rows packed, or undefined when a cell is neither a number nor null or the rows differ in width. */
export function packRows(rows: ReadonlyArray<ReadonlyArray<unknown>>): NumberRows | undefined {
  const width = rows[0]?.length ?? 0;
  if (width === 0) return undefined;
  const numbers = new Float64Array(rows.length * width);
  let missing: Uint8Array | undefined;
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    if (row.length !== width) return undefined;
    for (let j = 0; j < width; j++) {
      const v = row[j];
      if (typeof v === 'number') numbers[i * width + j] = v;
      else if (v === null) (missing ??= new Uint8Array(numbers.length))[i * width + j] = 1;
      else return undefined;
    }
  }
  return { width, numbers, missing };
}

/** Row `i` as an array (null where missing). */
export function rowAt(p: NumberRows, i: number): Array<number | null> {
  const row: Array<number | null> = Array.from(p.numbers.subarray(i * p.width, (i + 1) * p.width));
  if (p.missing) for (let j = 0; j < p.width; j++) if (p.missing[i * p.width + j]) row[j] = null;
  return row;
}

/** Rows held. */
export const rowCount = (p: NumberRows): number => (p.width === 0 ? 0 : p.numbers.length / p.width);

/** The buffers to transfer with `p`. */
export const buffersOf = (p: NumberRows): ArrayBuffer[] => [p.numbers.buffer as ArrayBuffer, ...(p.missing ? [p.missing.buffer as ArrayBuffer] : [])];
