// Morgan (ECFP-like) fingerprints as 0/1 vectors for learning and read-across (the
// search index keeps its own packed ones in fingerprints.ts), optionally followed by the
// 166 MACCS structural keys (RDKit's 167 bits, bit 0 unused), which name the functional
// groups a hashed circular fingerprint folds together (nitro, N-oxide, azo, epoxide...),
// and by the mutagenicity toxicophores of toxicophores.ts, a bit each.
import { rdkit, withMol } from './rdkitLazy.ts';
import { matchesOf, TOXICOPHORES, withToxicophores } from './toxicophores.ts';

export interface MorganOptions {
  radius: number;
  bits: number;
  /** Append RDKit's 167 MACCS key bits after the Morgan bits. */
  maccs?: boolean;
  /** Append a bit per TOXICOPHORES entry last. */
  toxicophores?: boolean;
}

/** Length of RDKit's MACCS key vector. */
export const MACCS_BITS = 167;

/** One 0/1 row per SMILES (bits, then MACCS_BITS when `maccs`, then the toxicophores); undefined where the structure does not parse. */
export async function morganFingerprints(smiles: readonly string[], opt: MorganOptions): Promise<Array<number[] | undefined>> {
  await rdkit();
  const details = JSON.stringify({ radius: opt.radius, nBits: opt.bits });
  const keys = opt.bits + (opt.maccs ? MACCS_BITS : 0);
  return withToxicophores((queries) => smiles.map((s) => withMol(s, (mol) => {
    const packed = mol.get_morgan_fp_as_uint8array(details) as Uint8Array;
    const row = new Array<number>(keys + (opt.toxicophores ? TOXICOPHORES.length : 0));
    for (let b = 0; b < opt.bits; b++) row[b] = (packed[b >> 3]! >> (b & 7)) & 1;
    if (opt.maccs) {
      const maccs = mol.get_maccs_fp_as_uint8array() as Uint8Array;
      for (let b = 0; b < MACCS_BITS; b++) row[opt.bits + b] = (maccs[b >> 3]! >> (b & 7)) & 1;
    }
    if (opt.toxicophores) matchesOf(mol, queries).forEach((v, j) => { row[keys + j] = v; });
    return row;
  })), opt.toxicophores === true);
}
