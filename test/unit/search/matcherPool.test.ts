import { expect } from 'chai';
import { MatcherPool, MatchTimeout } from '../../../src/search/matcherPool.ts';
import { fingerprintsOf, initFingerprints } from '../../../src/chem/fingerprints.ts';

const C60 = 'c12c3c4c5c1c1c6c7c2c2c8c3c3c9c4c4c%10c5c5c1c1c6c6c%11c7c2c2c7c8c3c3c8c9c4c4c9c%10c5c5c1c1c6c6c%11c2c2c7c3c3c8c4c4c9c5c1c1c6c2c3c41';
/** Slot i holds STRUCTURES[i]; an empty string stands for a removed compound. */
const STRUCTURES = ['CC=O', 'c1ccccc1', 'OC(=O)C', 'CCO', '', 'O=Cc1ccccc1', C60, 'CC(=O)N'];
const CARBONYL: readonly number[] = [0, 2, 5, 7];

/** Pickles by slot, and every slot they were asked for. */
function pickleSource(): { read: (slots: Int32Array) => Uint8Array[]; asked: number[] } {
  const pickles = STRUCTURES.map((s) => (s ? fingerprintsOf(s).pickle : new Uint8Array(0)));
  const asked: number[] = [];
  return { asked, read: (slots) => Array.from(slots, (s) => (asked.push(s), pickles[s]!)) };
}

const slotsOf = (...slots: number[]) => Int32Array.from(slots);
const found = (slots: Int32Array, hits: Uint32Array) => Array.from(hits, (k) => slots[k]!);

describe('matcher pool', function () {
  this.timeout(60_000);
  before(initFingerprints);

  it('a matcher is sent only the pickles of the molecules it does not keep, and answers the same', async () => {
    const pool = new MatcherPool(2, 100);
    const source = pickleSource();
    try {
      const all = slotsOf(0, 1, 2, 3, 4, 5, 7);
      expect(found(all, await pool.match('smarts', 'C=O', all, source.read, 10_000))).to.deep.equal(CARBONYL);
      expect(source.asked.sort()).to.deep.equal([0, 1, 2, 3, 4, 5, 7]);
      source.asked.length = 0;
      expect(found(all, await pool.match('smarts', 'C=O', all, source.read, 10_000))).to.deep.equal(CARBONYL);
      // The removed compound is asked again: nothing was kept for it.
      expect(source.asked).to.deep.equal([4]);
      expect(found(all, await pool.match('smiles', 'c1ccccc1', all, source.read, 10_000))).to.deep.equal([1, 5]);
    } finally {
      await pool.close();
    }
  });

  it('molecules pushed out of a small cache are sent again', async () => {
    const pool = new MatcherPool(1, 2);
    const source = pickleSource();
    try {
      const all = slotsOf(0, 1, 2, 3, 5);
      expect(found(all, await pool.match('smarts', 'C=O', all, source.read, 10_000))).to.deep.equal([0, 2, 5]);
      source.asked.length = 0;
      // It keeps the last two it parsed, 3 and 5: 1 and 0 are sent, and push them out.
      expect(found(slotsOf(5, 1, 0), await pool.match('smarts', 'C=O', slotsOf(5, 1, 0), source.read, 10_000))).to.deep.equal([5, 0]);
      expect(source.asked).to.deep.equal([1, 0]);
      source.asked.length = 0;
      expect(found(all, await pool.match('smarts', 'C=O', all, source.read, 10_000))).to.deep.equal([0, 2, 5]);
      expect(source.asked.sort()).to.deep.equal([2, 3, 5]);
    } finally {
      await pool.close();
    }
  });

  it('a matcher stopped after its time limit is replaced by one keeping nothing, which gets every pickle again', async () => {
    const pool = new MatcherPool(1, 100);
    const source = pickleSource();
    try {
      const some = slotsOf(0, 1, 2);
      expect(found(some, await pool.match('smarts', 'C=O', some, source.read, 10_000))).to.deep.equal([0, 2]);
      let stopped: unknown;
      await pool.match('smarts', '*' + '~*'.repeat(24) + '~[!#6]', slotsOf(0, 6), source.read, 1000).catch((e: unknown) => (stopped = e));
      expect(stopped).to.be.instanceOf(MatchTimeout);
      source.asked.length = 0;
      expect(found(some, await pool.match('smarts', 'C=O', some, source.read, 10_000))).to.deep.equal([0, 2]);
      expect(source.asked).to.deep.equal([0, 1, 2]);
    } finally {
      await pool.close();
    }
  });

  it('without a cache every pickle is sent each time', async () => {
    const pool = new MatcherPool(1, 0);
    const source = pickleSource();
    try {
      for (const round of [1, 2]) {
        source.asked.length = 0;
        expect(found(slotsOf(0, 3), await pool.match('smarts', 'C=O', slotsOf(0, 3), source.read, 10_000)), `round ${round}`).to.deep.equal([0]);
        expect(source.asked).to.deep.equal([0, 3]);
      }
    } finally {
      await pool.close();
    }
  });
});
