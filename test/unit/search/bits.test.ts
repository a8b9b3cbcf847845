// Fingerprint bit arithmetic, including words with bit 31 set (signed in JS bitwise ops).
import { expect } from 'chai';
import { FP_WORDS } from '../../../src/chem/fingerprints.ts';
import { containsBits } from '../../../src/search/bits.ts';

const fp = (...words: Array<[number, number]>): Uint32Array => {
  const out = new Uint32Array(FP_WORDS);
  for (const [i, w] of words) out[i] = w;
  return out;
};

describe('search bits', () => {
  const cases: Array<[string, Uint32Array, Uint32Array, boolean]> = [
    ['equal words', fp([0, 0b1011]), fp([0, 0b1011]), true],
    ['subset', fp([3, 0b0001]), fp([3, 0b1011]), true],
    ['missing bit', fp([3, 0b0100]), fp([3, 0b1011]), false],
    ['bit 31 in both', fp([13, 0x80043100]), fp([13, 0x800c3100]), true],
    ['bit 31 missing', fp([13, 0x80000000]), fp([13, 0x7fffffff]), false],
    ['empty query', fp(), fp([5, 1]), true],
  ];
  for (const [name, query, target, expected] of cases) {
    it(`containsBits: ${name} → ${expected}`, () => {
      expect(containsBits(query, target, 0)).to.equal(expected);
    });
  }
});
