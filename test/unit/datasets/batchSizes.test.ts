// An upload's rows go to the worker threads in batches (src/datasets/uploadReader.ts):
// full batches while much remains, then smaller ones, so the threads finish together.
import { expect } from 'chai';
import { batchSizes } from '../../../src/datasets/uploadReader.ts';

describe('datasets: upload batch sizes', () => {
  it('cut kazius (4,069 structures, two threads) into full batches, then shares of what is left', () => {
    const sizes = batchSizes(4069, 2);
    expect(sizes.reduce((a, b) => a + b, 0)).to.equal(4069);
    // 13 full batches leave 819: a quarter of it (rounded up), and so on down to 25.
    expect(sizes).to.deep.equal([...Array<number>(13).fill(250), 205, 154, 115, 87, 65, 49, 36, 27, 25, 25, 25, 6]);
  });

  it('never exceed a full batch, never go below the smallest but for the remainder, and never grow', () => {
    for (const [count, threads] of [[1, 2], [24, 2], [100, 2], [999, 4], [10_000, 1], [100_000, 8]] as const) {
      const sizes = batchSizes(count, threads);
      expect(sizes.reduce((a, b) => a + b, 0), `${count} on ${threads}`).to.equal(count);
      sizes.forEach((s, i) => {
        expect(s).to.be.at.most(250);
        if (i < sizes.length - 1) expect(s).to.be.at.least(25);
        if (i > 0) expect(s).to.be.at.most(sizes[i - 1]!);
      });
    }
    expect(batchSizes(0, 2)).to.deep.equal([]);
    expect(batchSizes(10, 2)).to.deep.equal([10]);
  });
});
