// Keeps the search index equal to the stored compounds across restarts (issue #8 §2): at
// start the index file is reconciled with the compounds in the triple store, so a lost
// or stale file costs a recomputation, never a wrong answer.
import type { Deps } from '../deps.ts';
import type { StoredStructure } from './engine.ts';

/** Every stored compound with the SMILES and InChIKey its identity was made of. */
export function storedStructures(deps: Pick<Deps, 'store'>): StoredStructure[] {
  return deps.store.select('compound-identities').map((row) => ({ uri: row.compound.value, smiles: row.smiles.value, inchiKey: row.inchiKey.value }));
}

export function syncSearchIndex(deps: Pick<Deps, 'store' | 'search' | 'log'>): void {
  const recomputed = deps.search.reconcile(storedStructures(deps));
  if (recomputed > 0) deps.log(`search index: recomputed fingerprints of ${recomputed} compound(s) missing from the index file`);
}
