// The query molecule of a substructure search, built the same way by the screen (smarts.ts,
// main thread) and the matcher (substructWorker.ts, its own RDKit instance): the screen's
// bits are then those of the molecule that is matched.
import type { MainModule, Mol } from '@rdkit/rdkit';

export type QueryKind = 'smarts' | 'smiles';

/** Reparsed without sanitising: the canonical SMILES already holds the perceived aromaticity. */
const AS_WRITTEN = JSON.stringify({ sanitize: false });

/**
 * A SMARTS pattern as RDKit reads it; a SMILES as a molecule, which RDKit matches atom by
 * element and (when written) charge and isotope, bond by order; bracket H counts are not
 * compared. Sanitising perceives aromaticity, so "C1=CC=CC=C1" finds benzene rings; it also
 * makes every under-valent bracket atom of a fragment a radical ([N+] a tetraradical, the N
 * of [N+](=O)[O-] a monoradical), and a query radical matches only a radical: no stored
 * nitro group or ammonium would contain the query. So the query is read again from its
 * canonical SMILES, unsanitised: aromatic as perceived, without radicals.
 * Null (and no object left to free) when the text does not parse.
 */
export function substructureQuery(rd: MainModule, kind: QueryKind, text: string): Mol | null {
  if (kind === 'smarts') return rd.get_qmol(text);
  const sanitised = rd.get_mol(text);
  if (!sanitised) return null;
  try {
    if (!sanitised.is_valid()) return null;
    return rd.get_mol(sanitised.get_smiles(), AS_WRITTEN);
  } finally {
    sanitised.delete();
  }
}
