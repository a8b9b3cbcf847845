// SMARTS matching (match and count a list of patterns), with RDKit.
import { rdkit, rdkitSync, withMol } from './rdkitLazy.ts';
import { BadRequest } from '../errors.ts';
import { ERR } from '../rdf/vocab.ts';

/** Throws 400 naming the pattern when a SMARTS does not parse. */
export async function checkSmarts(patterns: readonly string[], param: string): Promise<void> {
  await rdkit();
  for (const p of patterns) {
    const q = rdkitSync().get_qmol(p);
    const ok = q?.is_valid() ?? false;
    q?.delete();
    if (!ok) throw new BadRequest(`parameter ${param}: ${JSON.stringify(p)} is not valid SMARTS`, { code: ERR.InvalidParameter });
  }
}

/** counts[row][pattern]: number of unique matches (null where the structure does not parse). */
export async function countMatches(smiles: readonly string[], patterns: readonly string[]): Promise<Array<Array<number | null>>> {
  await rdkit();
  const queries = patterns.map((p) => rdkitSync().get_qmol(p)!);
  try {
    return smiles.map((s) => withMol(s, (mol) => queries.map((q) => {
      const found = JSON.parse(mol.get_substruct_matches(q)) as unknown[] | Record<string, never>;
      return Array.isArray(found) ? found.length : 0;
    })) ?? patterns.map(() => null));
  } finally {
    for (const q of queries) q.delete();
  }
}
