// SMARTS matching (match and count a list of patterns), with RDKit.
import { rdkit, rdkitSync, withMol } from './rdkitLazy.ts';
import { BadRequest } from '../errors.ts';
import { ERR } from '../rdf/vocab.ts';
import { parseFailure } from './fingerprints.ts';
import { withRdkitLog } from './toolkits.ts';

/**
 * Throws 400 naming the pattern, and what RDKit found wrong with it, when a SMARTS does not
 * parse. RDKit's log is captured meanwhile, so the client reads why and the service's log
 * gets no lines of RDKit's own.
 */
export async function checkSmarts(patterns: readonly string[], param: string): Promise<void> {
  await rdkit();
  for (const p of patterns) {
    let ok = false;
    let log = '';
    try {
      ({ value: ok, log } = withRdkitLog((rd) => {
        const q = rd.get_qmol(p);
        const valid = q?.is_valid() ?? false;
        q?.delete();
        return valid;
      }));
    } catch {
      // A C++ exception out of the SMARTS parser: refused like any other.
    }
    if (ok) continue;
    const { reason, position } = parseFailure(log, p);
    const at = position === undefined ? '' : ` (at position ${position})`;
    throw new BadRequest(`parameter ${param}: ${JSON.stringify(p)} is not valid SMARTS: ${reason}${at}`, { code: ERR.InvalidParameter });
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
