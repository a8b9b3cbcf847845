// The Tanimoto kernel against hand-counted bits and against RDKit's own values
// (BulkTanimotoSimilarity on Morgan radius 2 / 2048 bits, Debian python3-rdkit).
import { expect } from 'chai';
import { FP_WORDS, initFingerprints, morganOf } from '../../../src/chem/fingerprints.ts';
import { FingerprintSet, leastBound } from '../../../src/search/fingerprintSet.ts';

describe('Tanimoto kernel', () => {
  it('answers hand-counted similarities, bit 31 and odd widths included', () => {
    // 3 words (96 bits): padded to the kernel's row width without changing a count.
    const set = new FingerprintSet(3, 2);
    set.set(0, [0b1111, 0, 0x80000000]); // 5 bits
    set.set(1, [0b0011, 0, 0x80000000]); // 3 bits, 3 shared with the query below
    set.set(2, [0, 0xffffffff, 0]); // 32 bits, none shared
    set.set(4, [0, 0, 0]); // empty; row 3 was never set and is empty too
    expect([set.count(0), set.count(1), set.count(2), set.count(3), set.length]).to.deep.equal([5, 3, 32, 0, 5]);
    const query = [0b0111, 0, 0x80000000]; // 4 bits
    // c / (a + b - c): 4/5, 3/4, 0/36; 0 against an empty row; two empty ones are equal.
    expect([...set.all(query)]).to.deep.equal([4 / 5, 3 / 4, 0, 0, 0]);
    expect([...set.all([0, 0, 0])]).to.deep.equal([0, 0, 0, 1, 1]);
    const hits = set.atLeast(query, 0.75);
    expect([...hits.rows]).to.deep.equal([0, 1]);
    expect([...hits.similarities]).to.deep.equal([0.8, 0.75]);
    expect([...set.atLeast(query, 0.8).rows]).to.deep.equal([0]);
    expect([...set.atLeast(query, 0.5, 1, 5).rows]).to.deep.equal([1]);
    set.set(5, [0xffffffff, 0x80000001, 0]);
    expect(set.count(5)).to.equal(34);
    expect(set.all([0x80000001, 0, 0])[5]).to.equal(2 / 34);
    set.clear(0);
    expect([...set.atLeast(query, 0.1).rows]).to.deep.equal([1]);
  });

  it('bounds: the least m whose m / (a + b - m) reaches the threshold, as counting up from 0 finds it', () => {
    const t = (a: number, b: number, m: number): number => (a + b - m === 0 ? 1 : m / (a + b - m));
    for (const threshold of [0.05, 0.1, 0.3, 0.7, 0.75, 0.8, 0.9, 1]) {
      for (let a = 0; a <= 50; a++) {
        for (let b = 0; b <= 80; b++) {
          let m = 0;
          while (m <= Math.min(a, b) && t(a, b, m) < threshold) m++;
          expect(leastBound(a, b, threshold), `a ${a} b ${b} threshold ${threshold}`).to.equal(m > Math.min(a, b) ? 0xffff : m);
        }
      }
    }
  });

  it('keeps rows and answers the same after growing many times', () => {
    const set = new FingerprintSet(FP_WORDS, 1);
    const row = (i: number): Uint32Array => new Uint32Array(FP_WORDS).map((_, j) => (j === i % FP_WORDS ? 0xff : j === 0 ? 1 : 0));
    for (let i = 0; i < 3000; i++) set.set(i, row(i));
    set.atLeast(row(5), 0.2); // scan output lies after the rows: growing must not leak it
    set.set(3100, row(1));
    expect(set.count(3050)).to.equal(0);
    const sims = set.all(row(5));
    expect(sims.length).to.equal(3101);
    expect(sims[5]).to.equal(1);
    expect(sims[69]).to.equal(1); // 69 % 64 = 5
    expect(sims[6]).to.equal(1 / 17);
    expect(sims[3050]).to.equal(0);
  });

  it('skips by block popcounts without losing a hit: the same rows and values as comparing every row', () => {
    // A small deterministic generator; sparse rows like Morgan's, some near copies of the query.
    let seed = 7;
    const next = (): number => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0);
    for (const words of [3, 5, FP_WORDS, 70]) {
      const sparse = (): Uint32Array => {
        const fp = new Uint32Array(words);
        for (let k = 0; k < 3 + (next() % (words * 2)); k++) fp[next() % words]! |= 1 << (next() % 32);
        return fp;
      };
      const query = sparse();
      const set = new FingerprintSet(words, 4);
      const rows: Uint32Array[] = [];
      for (let i = 0; i < 600; i++) {
        const fp = i % 3 === 0 ? query.map((w) => w & ~(1 << (next() % 32))) : sparse();
        if (i % 5 === 0) fp[next() % words]! |= 1 << (next() % 32);
        rows.push(fp);
        set.set(i, fp);
      }
      const bits = (fp: ArrayLike<number>): number => Array.from(fp).reduce((n, w) => n + w.toString(2).replace(/0/g, '').length, 0);
      const tanimoto = (fp: Uint32Array): number => {
        const c = bits(fp.map((w, i) => w & query[i]!));
        const d = bits(query) + bits(fp) - c;
        return d === 0 ? 1 : c / d;
      };
      for (const threshold of [0.05, 0.3, 0.55, 0.7, 0.85, 1]) {
        const expected = rows.map((fp, i) => [i, tanimoto(fp)] as const).filter(([, t]) => t >= threshold);
        const hits = set.atLeast(query, threshold);
        expect([...hits.rows], `${words} words, threshold ${threshold}`).to.deep.equal(expected.map(([i]) => i));
        expect([...hits.similarities]).to.deep.equal(expected.map(([, t]) => t));
      }
      expect(set.atLeast(query, 0.85).rows.length, `${words} words: some hits`).to.be.greaterThan(0);
      expect([...set.all(query)]).to.deep.equal(rows.map(tanimoto));
    }
  });

  it('agrees with RDKit on Morgan fingerprints', async () => {
    await initFingerprints();
    const smiles = ['c1ccccc1O', 'c1ccccc1N', 'Oc1ccc(Cl)cc1', 'CCO'];
    const set = new FingerprintSet(FP_WORDS);
    smiles.forEach((s, i) => set.set(i, morganOf(s)));
    expect(smiles.map((_, i) => set.count(i))).to.deep.equal([11, 11, 13, 6]);
    const rdkit = [1.0, 0.375, 0.4117647058823529, 0.0625];
    expect([...set.all(morganOf('c1ccccc1O'))]).to.deep.equal(rdkit);
    expect([...set.atLeast(morganOf('c1ccccc1O'), 0.4).rows]).to.deep.equal([0, 2]);
  });
});
