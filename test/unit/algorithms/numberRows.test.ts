// Rows of numbers between threads: packed into one Float64Array, read back row by row, and
// moved (not copied) out of a pool thread.
import { expect } from 'chai';
import { packRows, rowAt, rowCount } from '../../../src/algorithms/worker.ts';
import { WorkerPool } from '../../../src/tasks/workerPool.ts';

describe('rows of numbers between threads', function () {
  this.timeout(60_000);

  it('packs numbers and nulls, and reads every row back as it was', () => {
    const rows = [[1.5, -2, null], [0, Number.MAX_VALUE, 3e-300], [null, null, 7]];
    const packed = packRows(rows)!;
    expect(packed.width).to.equal(3);
    expect(rowCount(packed)).to.equal(3);
    expect(rows.map((_, i) => rowAt(packed, i))).to.deep.equal(rows);
    expect(packRows([[1, 2]])!.missing, 'no null, no mask').to.equal(undefined);
  });

  const refused: Array<[string, unknown[][]]> = [
    ['a string cell', [[1, 'x']]],
    ['rows of different widths', [[1, 2], [3]]],
    ['rows of no cells', [[], []]],
    ['no rows', []],
  ];
  for (const [what, rows] of refused) {
    it(`leaves ${what} as it is`, () => {
      expect(packRows(rows)).to.equal(undefined);
    });
  }

  it('a pool thread moves the buffers it names to the caller (WorkerTools.transfer)', async () => {
    const module = 'data:text/javascript,export function rows(n, tools) { const a = new Float64Array(n).map((_, i) => i / 2); tools.transfer([a.buffer]); return { a, byteLength: a.byteLength }; }';
    const pool = new WorkerPool(1);
    try {
      const out = await pool.run<{ a: Float64Array; byteLength: number }>(module, 'rows', 1000);
      expect(out.a).to.be.instanceOf(Float64Array);
      expect(out.a.length).to.equal(1000);
      expect(out.a[999]).to.equal(499.5);
      // Read in the thread before the move: the thread's copy was whole when it answered.
      expect(out.byteLength).to.equal(8000);
    } finally {
      await pool.close();
    }
  });
});
