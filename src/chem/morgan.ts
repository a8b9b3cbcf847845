// Morgan (ECFP-like) fingerprints as 0/1 vectors for learning and read-across (the
// search index keeps its own packed ones in fingerprints.ts).
import { rdkit, withMol } from './rdkitLazy.ts';

export interface MorganOptions {
  radius: number;
  bits: number;
}

/** One 0/1 row per SMILES; undefined where the structure does not parse. */
export async function morganFingerprints(smiles: readonly string[], opt: MorganOptions): Promise<Array<number[] | undefined>> {
  await rdkit();
  const details = JSON.stringify({ radius: opt.radius, nBits: opt.bits });
  return smiles.map((s) => withMol(s, (mol) => {
    const packed = mol.get_morgan_fp_as_uint8array(details) as Uint8Array;
    const row = new Array<number>(opt.bits);
    for (let b = 0; b < opt.bits; b++) row[b] = (packed[b >> 3]! >> (b & 7)) & 1;
    return row;
  }));
}
