// The in-memory identity index of compounds: standard InChIKey plus
// canonical SMILES → compound number. Built from the store on first use (boot.ts does it
// at start), kept up to date by the compound functions. Numbers, not URIs, are kept, so
// the index survives a change of the public base URI.
import type { Deps } from '../deps.ts';
import { bound } from '../store/api.ts';

/** What GET needs of a stored compound, kept in memory beside its identity. */
export interface StoredCompound {
  smiles: string;
  inchi: string;
  inchiKey: string;
  formula: string;
  molecularWeight: number;
  /** Structure file of the compound itself (absent for structures given as SMILES/InChI). */
  file?: string;
}

/** A conformer as listed by the store: URI, number and structure file. */
export interface ConformerRecord {
  uri: string;
  number: number;
  file: string;
}

export interface PendingCompound {
  id: number;
  done: Promise<void>;
}

export class CompoundIndex {
  readonly byKey = new Map<string, number>();
  readonly keyOfId = new Map<number, string>();
  readonly records = new Map<number, StoredCompound>();
  /** Conformer lists read from the store, dropped whenever a compound's conformers change. */
  readonly conformers = new Map<number, ConformerRecord[]>();
  /** Highest conformer number given out per compound in this run, so deleted numbers are not reused. */
  readonly lastConformer = new Map<number, number>();
  /** Structures being created right now, so concurrent posts of one structure meet. */
  readonly pending = new Map<string, PendingCompound>();
  private sorted: number[] | undefined;
  next = 1;

  add(id: number, record: StoredCompound): void {
    const key = identityKey(record.inchiKey, record.smiles);
    this.byKey.set(key, id);
    this.keyOfId.set(id, key);
    this.records.set(id, record);
    if (id >= this.next) this.next = id + 1;
    this.sorted = undefined;
  }

  remove(id: number): void {
    const key = this.keyOfId.get(id);
    if (key !== undefined && this.byKey.get(key) === id) this.byKey.delete(key);
    this.keyOfId.delete(id);
    this.records.delete(id);
    this.conformers.delete(id);
    this.sorted = undefined;
  }

  has(id: number): boolean {
    return this.keyOfId.has(id);
  }

  /** Compound numbers in ascending order (the order of GET /compound). */
  ids(): readonly number[] {
    this.sorted ??= [...this.keyOfId.keys()].sort((a, b) => a - b);
    return this.sorted;
  }
}

/** Identity key: InChIKey and canonical SMILES (InChI alone merges some tautomers and metals). */
export const identityKey = (inchiKey: string, smiles: string): string => `${inchiKey} ${smiles}`;

const indexes = new WeakMap<object, CompoundIndex>();

/** Number of a compound URI (…/compound/12 → 12), undefined for other URIs. */
export function compoundNumber(uri: string): number | undefined {
  const m = /\/compound\/(\d+)$/.exec(uri);
  return m ? Number(m[1]) : undefined;
}

/** The index of `deps.store`, loaded at start-up by loadCompoundIndex. */
export function compoundIndex(deps: Pick<Deps, 'store'>): CompoundIndex {
  const index = indexes.get(deps.store);
  if (!index) throw new Error('the compound index is read before start-up loaded it (bootCompounds)');
  return index;
}

/** Adds to `index` every compound of the store it does not hold. */
async function readIdentities(deps: Pick<Deps, 'store'>, index: CompoundIndex): Promise<void> {
  for (const row of await deps.store.select('compound-identities')) {
    const id = compoundNumber(bound(row, 'compound'));
    if (id === undefined || index.has(id)) continue;
    index.add(id, {
      smiles: bound(row, 'smiles'), inchi: bound(row, 'inchi'), inchiKey: bound(row, 'inchiKey'), formula: bound(row, 'formula'),
      molecularWeight: Number(bound(row, 'mw')), file: row.file?.value,
    });
  }
}

/** Loads the index of `deps.store` from the store, once. */
export async function loadCompoundIndex(deps: Pick<Deps, 'store'>): Promise<CompoundIndex> {
  let index = indexes.get(deps.store);
  if (!index) {
    index = new CompoundIndex();
    await readIdentities(deps, index);
    indexes.set(deps.store, index);
  }
  return index;
}

const catchingUp = new WeakMap<object, Promise<void>>();

/**
 * With a remote store other processes add compounds this one has not seen (API processes
 * and workers share nothing but the engines, docs/engines.md): the index reads what the
 * store holds beyond it before a compound it lacks is answered 404 or created anew. One
 * read at a time per store; callers share it. A whole read of the identities: fine for
 * tens of thousands of compounds, a per-compound lookup is the next step beyond.
 */
export async function catchUpCompounds(deps: Pick<Deps, 'store'>): Promise<void> {
  if (deps.store.kind !== 'sparql') return;
  let running = catchingUp.get(deps.store);
  if (!running) {
    running = readIdentities(deps, compoundIndex(deps)).finally(() => catchingUp.delete(deps.store));
    catchingUp.set(deps.store, running);
  }
  await running;
}

/** Makes sure compound `id` is in the index if the store holds it (see catchUpCompounds). */
export async function knowCompound(deps: Pick<Deps, 'store'>, id: number): Promise<void> {
  if (!compoundIndex(deps).has(id)) await catchUpCompounds(deps);
}
