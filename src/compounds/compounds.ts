// Compound identity and creation: one compound per structure, identified
// by standard InChIKey plus canonical SMILES. Used by POST /compound and by dataset
// uploads (ensureCompounds: many structures, one store commit).
import type { Deps } from '../deps.ts';
import type { ParsedStructure } from '../chem/index.ts';
import type { WriteOp } from '../store/api.ts';
import { catchUpCompounds, compoundIndex, compoundUri, identityKey, type PendingCompound, type StoredCompound } from './compoundIndex.ts';
import { compoundQuads, identityFeatureOps } from './compoundQuads.ts';
import { newStructurePath, removeStructureFiles, writeStructureFiles } from './compoundFiles.ts';
import { reserveShared } from '../ids/mint.ts';
import { InternalError } from '../errors.ts';

// Kept beside the identity index, which names compounds from their numbers too.
export { compoundUri };

/** URI of the stored compound with this identity, if any (in-memory, no store query). */
export function compoundUriByKey(deps: Deps, inchiKey: string, smiles: string): string | undefined {
  const id = compoundIndex(deps).byKey.get(identityKey(inchiKey, smiles));
  return id === undefined ? undefined : compoundUri(deps, id);
}

/** The stored compound of `s`, created if new. */
export async function ensureCompound(deps: Deps, s: ParsedStructure, owner?: string): Promise<{ uri: string; created: boolean }> {
  const created = new Set<number>();
  const [uri] = await ensureMany(deps, [s], owner, created);
  if (uri === undefined) throw new InternalError('storing one structure gave no compound URI');
  return { uri, created: created.size > 0 };
}

/** URIs of the compounds of `list` (in order), creating the new ones in one commit. */
export function ensureCompounds(deps: Deps, list: ParsedStructure[], owner?: string): Promise<string[]> {
  return ensureMany(deps, list, owner, new Set());
}

/** True when a structure's molfile holds coordinates worth keeping (drawn or 3D input). */
export const keepsFile = (s: ParsedStructure): boolean => s.hasCoords === true || s.is3D === true;

/** The in-memory record of a stored structure. */
export const storedOf = (s: ParsedStructure, file: string | undefined): StoredCompound => ({
  smiles: s.smiles, inchi: s.inchi, inchiKey: s.inchiKey, formula: s.formula, molecularWeight: s.molecularWeight, file,
});

const featuresReady = new WeakMap<object, Set<string>>();

/** Store ops creating the identifier features, the first time for this store and base URI. */
async function featureOps(deps: Deps): Promise<WriteOp[]> {
  const ready = featuresReady.get(deps.store) ?? new Set<string>();
  featuresReady.set(deps.store, ready);
  if (ready.has(deps.config.baseUrl)) return [];
  ready.add(deps.config.baseUrl);
  const ops: WriteOp[] = [];
  for (const f of identityFeatureOps(deps)) {
    if (!(await deps.store.hasGraph(f.graph))) ops.push({ op: 'replace', graph: f.graph, quads: f.quads });
  }
  return ops;
}

async function ensureMany(deps: Deps, list: ParsedStructure[], owner: string | undefined, created: Set<number>): Promise<string[]> {
  // Remote store: compounds other processes made since this one looked are known before ids are given.
  const unknown = list.filter((s) => !compoundIndex(deps).byKey.has(identityKey(s.inchiKey, s.smiles))).length;
  if (unknown > 0) await catchUpCompounds(deps);
  const index = compoundIndex(deps);
  // Several processes (REDIS_URL) draw compound numbers from one counter, so two never give one number twice.
  let shared = unknown > 0 ? await reserveShared(deps, 'compound', unknown, async () => index.next - 1) : undefined;
  const ids: number[] = [];
  const waits: Promise<void>[] = [];
  const fresh: Array<{ id: number; key: string; s: ParsedStructure; file?: string }> = [];
  const mine = new Map<string, number>();
  // Ids are assigned without awaiting, so concurrent calls never mint two ids for one key.
  for (const s of list) {
    const key = identityKey(s.inchiKey, s.smiles);
    let id = index.byKey.get(key) ?? mine.get(key);
    if (id === undefined) {
      const pending = index.pending.get(key);
      if (pending) {
        waits.push(pending.done);
        id = pending.id;
      } else {
        id = shared === undefined ? index.next++ : shared++;
        mine.set(key, id);
        fresh.push({ id, key, s, file: keepsFile(s) ? newStructurePath(id, 'compound') : undefined });
      }
    }
    ids.push(id);
  }
  if (fresh.length) await create(deps, fresh, owner, created);
  await Promise.all(waits);
  return ids.map((id) => compoundUri(deps, id));
}

async function create(deps: Deps, fresh: Array<{ id: number; key: string; s: ParsedStructure; file?: string }>, owner: string | undefined, created: Set<number>): Promise<void> {
  const index = compoundIndex(deps);
  let settle!: (error?: unknown) => void;
  const done = new Promise<void>((resolve, reject) => (settle = (e) => (e ? reject(e) : resolve())));
  done.catch(() => undefined);
  for (const f of fresh) index.pending.set(f.key, { id: f.id, done } satisfies PendingCompound);
  const files = fresh.filter((f) => f.file).map((f) => ({ rel: f.file!, text: f.s.molfile }));
  try {
    // Files first, then the triples naming them: a crash in between leaves
    // only unnamed files, which start-up removes.
    await writeStructureFiles(deps, files);
    const ops: WriteOp[] = await featureOps(deps);
    for (const f of fresh) {
      const uri = compoundUri(deps, f.id);
      // A new graph: 'add' is 'replace' without the drop of what is not there.
      ops.push({ op: 'add', graph: uri, quads: compoundQuads(uri, f.id, f.s, f.file, owner) });
    }
    await deps.store.commit(ops);
  } catch (e) {
    for (const f of fresh) index.pending.delete(f.key);
    await removeStructureFiles(deps, files.map((f) => f.rel));
    settle(e);
    throw e;
  }
  for (const f of fresh) {
    index.add(f.id, storedOf(f.s, f.file));
    index.pending.delete(f.key);
    created.add(f.id);
    deps.search.indexCompound(compoundUri(deps, f.id), f.s.smiles, f.s.inchiKey, f.s.fingerprints);
  }
  settle();
}
