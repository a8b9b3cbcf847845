// Substructure queries: a SMARTS pattern or a SMILES read as a query (substructQuery.ts),
// validated on the main thread (so bad input is a 400 naming the position) and screened
// here; src/chem/substructWorker.ts matches them exactly. Every WASM object is freed.
import type { Mol } from '@rdkit/rdkit';
import { FP_BITS, FP_WORDS, parseWith } from './fingerprints.ts';
import { substructureQuery, type QueryKind } from './substructQuery.ts';

export type { QueryKind };

const PATTERN = JSON.stringify({ nBits: FP_BITS });

function queryMol(kind: QueryKind, text: string): Mol {
  return parseWith(kind === 'smarts' ? 'SMARTS' : 'SMILES', text, (rd) => substructureQuery(rd, kind, text));
}

/**
 * Validates a query and answers its screening fingerprint: every structure that contains
 * the query has all of these bits set (RDKit's pattern fingerprint is built for this).
 */
export function screenOf(kind: QueryKind, text: string): Uint32Array {
  const mol = queryMol(kind, text);
  try {
    const bytes: Uint8Array = mol.get_pattern_fp_as_uint8array(PATTERN);
    const out = new Uint32Array(FP_WORDS);
    new Uint8Array(out.buffer).set(bytes.subarray(0, FP_WORDS * 4));
    return out;
  } finally {
    mol.delete();
  }
}
