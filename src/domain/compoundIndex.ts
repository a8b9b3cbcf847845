// The in-memory identity index of compounds (issue #3 §2): standard InChIKey plus
// canonical SMILES → compound number. Built from the store on first use (boot.ts does it
// at start), kept up to date by the compound functions. Numbers, not URIs, are kept, so
// the index survives a change of the public base URI.
import type { Deps } from '../deps.ts';

export interface PendingCompound {
  id: number;
  done: Promise<void>;
}

export class CompoundIndex {
  readonly byKey = new Map<string, number>();
  readonly keyOfId = new Map<number, string>();
  /** Structures being created right now, so concurrent posts of one structure meet. */
  readonly pending = new Map<string, PendingCompound>();
  private sorted: number[] | undefined;
  next = 1;

  add(id: number, key: string): void {
    this.byKey.set(key, id);
    this.keyOfId.set(id, key);
    if (id >= this.next) this.next = id + 1;
    this.sorted = undefined;
  }

  remove(id: number): void {
    const key = this.keyOfId.get(id);
    if (key !== undefined && this.byKey.get(key) === id) this.byKey.delete(key);
    this.keyOfId.delete(id);
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

/** The index of `deps.store`, loaded from the store on first use. */
export function compoundIndex(deps: Pick<Deps, 'store'>): CompoundIndex {
  let index = indexes.get(deps.store);
  if (!index) {
    index = new CompoundIndex();
    for (const row of deps.store.select('compound-identities')) {
      const id = compoundNumber(row.compound.value);
      if (id !== undefined) index.add(id, identityKey(row.inchiKey.value, row.smiles.value));
    }
    indexes.set(deps.store, index);
  }
  return index;
}
