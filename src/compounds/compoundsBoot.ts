// The compounds step of start-up (boot.ts): load the chemistry toolkits, build the
// identity index and repair structure files left by a crash.
import type { Deps } from '../deps.ts';
import { initChem } from '../chem/index.ts';
import { loadCompoundIndex } from './compoundIndex.ts';
import { repairStructureFiles } from './compoundFiles.ts';
import { bound } from '../store/api.ts';

export async function bootCompounds(deps: Deps): Promise<void> {
  await initChem();
  await loadCompoundIndex(deps);
  const referenced = new Set((await deps.store.select('structure-files')).map((r) => bound(r, 'file')));
  const removed = await repairStructureFiles(deps, referenced);
  if (removed.length) deps.logger.warn({ removed: removed.length }, `start-up repair removed ${removed.length} structure file(s) that no compound names: ${removed.slice(0, 10).join(', ')}`);
}
