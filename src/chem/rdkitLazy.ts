// RDKit for the algorithm side of src/chem (descriptors, fingerprints, SMARTS), loaded
// once per thread through toolkits.ts, so a worker and the main thread share one module.
import type { MainModule, Mol } from '@rdkit/rdkit';
import { loadToolkits, rdkit as loadedRdkit } from './toolkits.ts';
import { checkCancelled } from '../tasks/cancellation.ts';

export async function rdkit(): Promise<MainModule> {
  await loadToolkits();
  return loadedRdkit();
}

/** The module once rdkit() has resolved in this thread. */
export function rdkitSync(): MainModule {
  return loadedRdkit();
}

/**
 * Runs `fn` on the parsed molecule and frees it; undefined when the SMILES does not parse.
 * Every per-molecule loop of the algorithms passes here, so a cancelled worker call stops
 * here (src/tasks/cancellation.ts; a no-op outside worker calls).
 */
export function withMol<T>(smiles: string, fn: (mol: Mol) => T): T | undefined {
  checkCancelled();
  if (!smiles) return undefined;
  const mol = loadedRdkit().get_mol(smiles);
  if (!mol) return undefined;
  try {
    return mol.is_valid() ? fn(mol) : undefined;
  } finally {
    mol.delete();
  }
}
