// Reading compounds and conformers: identity from the in-memory index (loaded from the
// triples), structures from files, and each compound's default structure,
// its first conformer (SPEC §2.3).
import { DataFactory } from 'n3';
import type { Deps } from '../deps.ts';
import { NotFound } from '../errors.ts';
import { molfileOfSmiles } from '../chem/write.ts';
import { compoundIndex, type ConformerRecord, type StoredCompound } from './compoundIndex.ts';
import { compoundUri } from './compounds.ts';
import { readStructureFile } from './compoundFiles.ts';
import { bound } from '../store/api.ts';

export type { ConformerRecord };

const { namedNode } = DataFactory;

export interface CompoundRecord extends StoredCompound {
  id: number;
  uri: string;
}

/** Parses a path segment as a compound or conformer number; 404 for anything else. */
export function numberOf(raw: string, what: string): number {
  if (!/^\d{1,12}$/.test(raw)) throw new NotFound(`no ${what} "${raw.slice(0, 40)}"`);
  return Number(raw);
}

export function compoundRecord(deps: Deps, id: number): CompoundRecord {
  const uri = compoundUri(deps, id);
  const stored = compoundIndex(deps).records.get(id);
  if (!stored) throw new NotFound(`no compound ${uri}`);
  return { ...stored, id, uri };
}

export async function conformerRecords(deps: Deps, compound: CompoundRecord): Promise<ConformerRecord[]> {
  const index = compoundIndex(deps);
  if (index.withConformers && !index.withConformers.has(compound.id)) return [];
  const cache = index.conformers;
  let list = cache.get(compound.id);
  if (!list) {
    list = (await deps.store.select('compound-conformers', { compound: namedNode(compound.uri) })).map((r) => ({
      uri: bound(r, 'conformer'),
      number: Number(bound(r, 'number')),
      file: bound(r, 'file'),
    }));
    cache.set(compound.id, list);
  }
  return list;
}

/** Forgets the cached conformer list of a compound after a change. */
export function conformersChanged(deps: Deps, id: number): void {
  compoundIndex(deps).conformers.delete(id);
}

export async function conformerRecord(deps: Deps, compound: CompoundRecord, n: number): Promise<ConformerRecord> {
  const found = (await conformerRecords(deps, compound)).find((c) => c.number === n);
  if (!found) throw new NotFound(`no conformer ${n} of compound ${compound.uri}`);
  return found;
}

/** The compound's own structure: its file, or a 2D layout of its SMILES. */
export async function ownMolfile(deps: Deps, compound: CompoundRecord): Promise<string> {
  return compound.file ? readStructureFile(deps, compound.file) : molfileOfSmiles(compound.smiles);
}

/** SPEC §2.3: the default structure is the first conformer, else the compound's own. */
export async function defaultMolfile(deps: Deps, compound: CompoundRecord): Promise<string> {
  const first = (await conformerRecords(deps, compound))[0];
  return first ? readStructureFile(deps, first.file) : ownMolfile(deps, compound);
}
