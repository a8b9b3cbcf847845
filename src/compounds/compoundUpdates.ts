// PUT and DELETE of a compound (SPEC §4.2). Order of writes: new files,
// then one commit, then old files removed, so a crash never leaves triples naming a
// missing file; leftovers are removed at the next start. A compound URI names one
// molecule for good (docs/integrity.md): datasets and training sets that hold it must not
// change under their users, so a PUT of another molecule answers that molecule's compound.
import type { Deps } from '../deps.ts';
import type { ParsedStructure } from '../chem/index.ts';
import type { WriteOp } from '../store/api.ts';
import { compoundIndex, identityKey } from './compoundIndex.ts';
import { compoundQuads } from './compoundQuads.ts';
import { keepsFile, compoundUri, ensureCompound, storedOf } from './compounds.ts';
import { compoundReferrers, refuseIfReferenced } from '../integrity/referrers.ts';
import { compoundRecord, conformerRecords, type CompoundRecord } from './compoundRecords.ts';
import { newStructurePath, removeCompoundDir, removeStructureFiles, writeStructureFile } from './compoundFiles.ts';
import { withCompoundLock } from './compoundLocks.ts';

/**
 * PUT /compound/{id}: the same molecule (same identity) replaces the stored representation
 * (coordinates, drawing) and answers `id`'s URI; another molecule leaves `id` as it is and
 * answers the URI of the compound of that structure, created if new.
 */
export async function replaceCompound(deps: Deps, id: number, s: ParsedStructure, owner?: string): Promise<string> {
  const key = identityKey(s.inchiKey, s.smiles);
  const sameMolecule = await withCompoundLock(compoundUri(deps, id), async () => {
    const old = compoundRecord(deps, id);
    if (identityKey(old.inchiKey, old.smiles) !== key) return false;
    await replaceRepresentation(deps, old, s, owner);
    return true;
  });
  return sameMolecule ? compoundUri(deps, id) : (await ensureCompound(deps, s, owner)).uri;
}

async function replaceRepresentation(deps: Deps, old: CompoundRecord, s: ParsedStructure, owner?: string): Promise<void> {
  const { id } = old;
  const index = compoundIndex(deps);
  const file = keepsFile(s) ? newStructurePath(id, 'compound') : undefined;
  if (file) await writeStructureFile(deps, file, s.molfile);
  const ops: WriteOp[] = [{ op: 'replace', graph: old.uri, quads: compoundQuads(old.uri, id, s, file, owner) }];
  try {
    await deps.store.commit(ops);
  } catch (e) {
    if (file) await removeStructureFiles(deps, [file]);
    throw e;
  }
  index.remove(id);
  index.add(id, storedOf(s, file));
  deps.search.indexCompound(old.uri, s.smiles, s.inchiKey, s.fingerprints);
  if (old.file) await removeStructureFiles(deps, [old.file]);
}

/** Removes compound `id`, its conformers and its files; 409 while datasets hold it, unless forced. */
export function deleteCompound(deps: Deps, id: number, force = false): Promise<void> {
  return withCompoundLock(compoundUri(deps, id), async () => {
    const c = compoundRecord(deps, id);
    refuseIfReferenced(c.uri, 'delete', await compoundReferrers(deps, c.uri), force);
    const ops: WriteOp[] = [{ op: 'drop', graph: c.uri }, ...(await conformerRecords(deps, c)).map((k) => ({ op: 'drop' as const, graph: k.uri }))];
    await deps.store.commit(ops);
    compoundIndex(deps).remove(id);
    deps.search.removeCompound(c.uri);
    await removeCompoundDir(deps, id);
  });
}
