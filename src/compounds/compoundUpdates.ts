// PUT and DELETE of a compound (SPEC §4.2). Order of writes: new files,
// then one commit, then old files removed, so a crash never leaves triples naming a
// missing file; leftovers are removed at the next start.
import type { Deps } from '../deps.ts';
import { BadRequest } from '../errors.ts';
import { ERR } from '../rdf/vocab.ts';
import type { ParsedStructure } from '../chem/index.ts';
import type { WriteOp } from '../store/store.ts';
import { compoundIndex, identityKey } from './compoundIndex.ts';
import { compoundQuads } from './compoundQuads.ts';
import { keepsFile, compoundUri, storedOf } from './compounds.ts';
import { compoundRecord, conformerRecords } from './compoundRecords.ts';
import { newStructurePath, removeCompoundDir, removeStructureFiles, writeStructureFile } from './compoundFiles.ts';
import { withCompoundLock } from './compoundLocks.ts';

/** Replaces compound `id`'s structure; conformers of another molecule go with the old one. */
export function replaceCompound(deps: Deps, id: number, s: ParsedStructure, owner?: string): Promise<string> {
  return withCompoundLock(compoundUri(deps, id), async () => {
    const old = compoundRecord(deps, id);
    const index = compoundIndex(deps);
    const key = identityKey(s.inchiKey, s.smiles);
    const other = index.byKey.get(key) ?? index.pending.get(key)?.id;
    if (other !== undefined && other !== id) {
      throw new BadRequest(`this structure is already compound ${compoundUri(deps, other)}; one structure is one compound`, { code: ERR.InvalidStructure });
    }
    const sameMolecule = identityKey(old.inchiKey, old.smiles) === key;
    const file = keepsFile(s) ? newStructurePath(id, 'compound') : undefined;
    if (file) await writeStructureFile(deps, file, s.molfile);
    const conformers = sameMolecule ? [] : await conformerRecords(deps, old);
    const ops: WriteOp[] = [{ op: 'replace', graph: old.uri, quads: compoundQuads(old.uri, id, s, file, owner) }];
    for (const c of conformers) ops.push({ op: 'drop', graph: c.uri });
    try {
      await deps.store.commit(ops);
    } catch (e) {
      if (file) await removeStructureFiles(deps, [file]);
      throw e;
    }
    index.remove(id);
    index.add(id, storedOf(s, file));
    deps.search.indexCompound(old.uri, s.smiles, s.inchiKey);
    await removeStructureFiles(deps, [...(old.file ? [old.file] : []), ...conformers.map((c) => c.file)]);
    return old.uri;
  });
}

/** Removes compound `id`, its conformers and its files. */
export function deleteCompound(deps: Deps, id: number): Promise<void> {
  return withCompoundLock(compoundUri(deps, id), async () => {
    const c = compoundRecord(deps, id);
    const ops: WriteOp[] = [{ op: 'drop', graph: c.uri }, ...(await conformerRecords(deps, c)).map((k) => ({ op: 'drop' as const, graph: k.uri }))];
    await deps.store.commit(ops);
    compoundIndex(deps).remove(id);
    deps.search.removeCompound(c.uri);
    await removeCompoundDir(deps, id);
  });
}
