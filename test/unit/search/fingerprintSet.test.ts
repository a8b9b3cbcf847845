// The Tanimoto kernel against hand-counted bits and against RDKit's own values
// (BulkTanimotoSimilarity on Morgan radius 2 / 2048 bits, Debian python3-rdkit).
import { expect } from 'chai';
import { FP_WORDS, initFingerprints, morganOf } from '../../../src/chem/fingerprints.ts';
import { FingerprintSet } from '../../../src/search/fingerprintSet.ts';

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
