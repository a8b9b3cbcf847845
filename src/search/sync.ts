// Keeps the search index equal to the stored compounds across restarts: at
// start the index file is reconciled with the compounds in the triple store, so a lost
// or stale file costs a recomputation, never a wrong answer.
import type { Deps } from '../deps.ts';
import { compoundNumber } from '../compounds/compoundIndex.ts';
import { compoundUri } from '../compounds/compounds.ts';
import type { StoredStructure } from './engine.ts';
import { bound } from '../store/api.ts';

/**
 * Every stored compound with the SMILES and InChIKey its identity was made of, named under
 * the current public base (graphs keep the base they were written under; keeps
 * compound numbers, not URIs, for that reason).
 */
export async function storedStructures(deps: Pick<Deps, 'store' | 'config'>): Promise<StoredStructure[]> {
  return (await deps.store.select('compound-identities')).map((row) => {
    const id = compoundNumber(bound(row, 'compound'));
    return { uri: id === undefined ? bound(row, 'compound') : compoundUri(deps, id), smiles: bound(row, 'smiles'), inchiKey: bound(row, 'inchiKey') };
  });
}

export async function syncSearchIndex(deps: Pick<Deps, 'store' | 'search' | 'logger' | 'config'>): Promise<void> {
  const recomputed = deps.search.reconcile(await storedStructures(deps));
  if (recomputed > 0) deps.logger.warn({ recomputed }, `search index: recomputed fingerprints of ${recomputed} compound(s) missing from the index file`);
}
