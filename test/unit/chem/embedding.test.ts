// 3D embeddings: stereo the structure leaves open may be embedded either way, stereo it
// specifies must survive; the InChIs here are RDKit's for the named structures.
import { expect } from 'chai';
import { clashOf, embeddingMismatch } from '../../../src/chem/embedding.ts';

const IBUPROFEN = 'InChI=1S/C13H18O2/c1-9(2)8-11-4-6-12(7-5-11)10(3)13(14)15/h4-7,9-10H,8H2,1-3H3,(H,14,15)';
const S_IBUPROFEN = IBUPROFEN + '/t10-/m0/s1';
const R_IBUPROFEN = IBUPROFEN + '/t10-/m1/s1';
const THREONINE = 'InChI=1S/C4H9NO3/c1-2(6)3(5)4(7)8/h2-3,6H,5H2,1H3,(H,7,8)';

describe('chem: checks of a 3D embedding', () => {
  it('unspecified stereo may come out in any configuration', () => {
    expect(embeddingMismatch(IBUPROFEN, S_IBUPROFEN)).to.equal(undefined);
    expect(embeddingMismatch(IBUPROFEN, R_IBUPROFEN)).to.equal(undefined);
  });

  it('specified stereo must survive, through /m inversion too', () => {
    expect(embeddingMismatch(S_IBUPROFEN, S_IBUPROFEN)).to.equal(undefined);
    expect(embeddingMismatch(S_IBUPROFEN, R_IBUPROFEN)).to.match(/centre 0:10 changed/);
    // (2S,3R) written two ways: /t2-,3+/m1 is the mirror image of /t2+,3-/m0 read literally
    expect(embeddingMismatch(`${THREONINE}/t2-,3+/m1/s1`, `${THREONINE}/t2+,3-/m0/s1`)).to.equal(undefined);
    expect(embeddingMismatch(`${THREONINE}/t2-,3+/m1/s1`, `${THREONINE}/t2-,3-/m1/s1`)).to.match(/centre 0:3/);
  });

  it('a centre left open ("?") in 2D is free, the specified one is not', () => {
    expect(embeddingMismatch(`${THREONINE}/t2-,3?/m1/s1`, `${THREONINE}/t2-,3-/m1/s1`)).to.equal(undefined);
    expect(embeddingMismatch(`${THREONINE}/t2-,3?/m1/s1`, `${THREONINE}/t2+,3-/m1/s1`)).to.match(/centre 0:2/);
  });

  it('double bonds: E must stay E', () => {
    const butene = 'InChI=1S/C4H8/c1-3-4-2/h3-4H,1-2H3';
    expect(embeddingMismatch(`${butene}/b4-3+`, `${butene}/b4-3+`)).to.equal(undefined);
    expect(embeddingMismatch(`${butene}/b4-3+`, `${butene}/b4-3-`)).to.match(/double bond/);
    expect(embeddingMismatch(butene, `${butene}/b4-3-`)).to.equal(undefined);
  });

  it('another constitution or charge is a mismatch', () => {
    expect(embeddingMismatch(IBUPROFEN, 'InChI=1S/C13H18O2/c1-9(2)8-11-4-6-12(7-5-11)10(3)13(14)15/h4-7,9-10H,8H2,1-3H3,(H,14,15)/p-1')).to.match(/different/);
    expect(embeddingMismatch(IBUPROFEN, '')).to.match(/no InChI/);
  });

  it('atoms closer than 0.6 Å are a clash', () => {
    expect(clashOf([{ x: 0, y: 0, z: 0 }, { x: 1.09, y: 0, z: 0 }])).to.equal(undefined);
    expect(clashOf([{ x: 0, y: 0, z: 0 }, { x: 1.5, y: 0, z: 0 }, { x: 1.5, y: 0.1, z: 0.1 }])).to.deep.include({ a: 2, b: 3 });
  });
});
