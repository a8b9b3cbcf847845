// The in-memory identity index of compounds: standard InChIKey plus
// canonical SMILES → compound number. Built from the store on first use (boot.ts does it
// at start), kept up to date by the compound functions. Numbers, not URIs, are kept, so
// the index survives a change of the public base URI.
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import type { Deps } from '../deps.ts';
import { bound, type Row } from '../store/api.ts';
import { uriOf } from '../deps.ts';
import type { CompoundIdentity } from './compoundQuads.ts';

/** URI of compound number `id` under the public base. */
export const compoundUri = (deps: Pick<Deps, 'config'>, id: number): string => uriOf(deps.config, `/compound/${id}`);

/** What GET needs of a stored compound, kept in memory beside its identity. */
export interface StoredCompound extends CompoundIdentity {
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
  /**
   * Compounds that have had conformers (read at start, added to before each conformer write),
   * when this process is the store's only writer: any other compound has none, so its list
   * needs no store read. Undefined when other processes write conformers too.
   */
  withConformers: Set<number> | undefined;
  /** Highest conformer number given out per compound in this run, so deleted numbers are not reused. */
  readonly lastConformer = new Map<number, number>();
  /** Compounds another process changed, to be read again from the store (compoundsChanged). */
  readonly stale = new Set<number>();
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

/** The record of an identity row (compound-identities, compound-identities-of). */
const recordOf = (row: Row): StoredCompound => ({
  smiles: bound(row, 'smiles'), inchi: bound(row, 'inchi'), inchiKey: bound(row, 'inchiKey'), formula: bound(row, 'formula'),
  molecularWeight: Number(bound(row, 'mw')), file: row.file?.value,
});

/** Adds to `index` every compound of the store it does not hold. */
async function readIdentities(deps: Pick<Deps, 'store'>, index: CompoundIndex): Promise<void> {
  for (const row of await deps.store.select('compound-identities')) {
    const id = compoundNumber(bound(row, 'compound'));
    if (id === undefined || index.has(id)) continue;
    index.add(id, recordOf(row));
  }
}

/** Loads the index of `deps.store` from the store, once. */
export async function loadCompoundIndex(deps: Pick<Deps, 'store' | 'changes'>): Promise<CompoundIndex> {
  let index = indexes.get(deps.store);
  if (!index) {
    index = new CompoundIndex();
    await readIdentities(deps, index);
    if (!deps.changes.shared) {
      const ids = (await deps.store.select('compounds-with-conformers')).map((row) => compoundNumber(bound(row, 'compound')));
      index.withConformers = new Set(ids.filter((id) => id !== undefined));
    }
    indexes.set(deps.store, index);
  }
  return index;
}

// Processes that share a store hear of each other's writes (src/store/changeFeed.ts): a
// compound another process wrote is marked stale and read again from the store, in the
// background, or at once when a request needs it. Its entry in the search index follows.

type IndexDeps = Pick<Deps, 'store' | 'search' | 'config'>;

/** Marks the compounds among `graphs` (written elsewhere) stale; they are read again soon. */
export function compoundsChanged(deps: IndexDeps, graphs: readonly string[]): void {
  const index = compoundIndex(deps);
  const prefix = uriOf(deps.config, '/compound/');
  let marked = false;
  for (const graph of graphs) {
    if (!graph.startsWith(prefix)) continue;
    const m = /^(\d+)(\/conformer\/\d+)?$/.exec(graph.slice(prefix.length));
    if (!m) continue;
    const id = Number(m[1]);
    index.conformers.delete(id);
    if (m[2] === undefined) {
      index.stale.add(id);
      marked = true;
    }
  }
  if (marked) void settleCompounds(deps).catch(() => undefined);
}

const settling = new WeakMap<object, Promise<void>>();

/** Reads every stale compound again (one pass at a time per store; callers share it). */
export function settleCompounds(deps: IndexDeps): Promise<void> {
  let running = settling.get(deps.store);
  if (!running) {
    running = (async () => {
      const index = compoundIndex(deps);
      while (index.stale.size > 0) await refreshCompounds(deps, [...index.stale].slice(0, REFRESH_BATCH));
    })().finally(() => settling.delete(deps.store));
    settling.set(deps.store, running);
  }
  return running;
}

const REFRESH_BATCH = 500;
const REFRESH_SLICE = 16;

/** Makes the index (and the search index) hold what the store holds of compounds `ids`. */
export async function refreshCompounds(deps: IndexDeps, ids: readonly number[]): Promise<void> {
  const index = compoundIndex(deps);
  const rows = await deps.store.select('compound-identities-of', { compounds: { iris: ids.map((id) => compoundUri(deps, id)) } });
  const found = new Map<number, StoredCompound>();
  for (const row of rows) {
    const id = compoundNumber(bound(row, 'compound'));
    if (id !== undefined) found.set(id, recordOf(row));
  }
  for (const [n, id] of ids.entries()) {
    // A changed compound's fingerprints are computed here (about a millisecond each): a turn
    // of the event loop goes to other requests between every few.
    if (n > 0 && n % REFRESH_SLICE === 0) await yieldToLoop();
    index.stale.delete(id);
    const record = found.get(id);
    const uri = compoundUri(deps, id);
    if (record) {
      if (holdAs(index, id, record)) deps.search.indexCompound(uri, record.smiles, record.inchiKey);
    } else if (index.has(id)) {
      index.remove(id);
      deps.search.removeCompound(uri);
    }
  }
}

const sameRecord = (a: StoredCompound, b: StoredCompound): boolean =>
  a.inchiKey === b.inchiKey && a.smiles === b.smiles && a.inchi === b.inchi && a.file === b.file && a.formula === b.formula && a.molecularWeight === b.molecularWeight;

/** Puts `record` in the index as compound `id`; false when the index held it already as it is. */
function holdAs(index: CompoundIndex, id: number, record: StoredCompound): boolean {
  const known = index.records.get(id);
  if (known && sameRecord(known, record)) return false;
  index.remove(id);
  index.add(id, record);
  return true;
}

/**
 * Makes the index equal to the store's compounds again, after changes of other processes
 * may have been missed (src/store/changeFeed.ts ChangeListener.lost).
 */
export async function reloadCompounds(deps: IndexDeps): Promise<void> {
  const index = compoundIndex(deps);
  const stored = new Set<number>();
  for (const row of await deps.store.select('compound-identities')) {
    const id = compoundNumber(bound(row, 'compound'));
    if (id === undefined) continue;
    stored.add(id);
    holdAs(index, id, recordOf(row));
  }
  for (const id of [...index.records.keys()]) if (!stored.has(id)) index.remove(id);
  index.stale.clear();
  index.conformers.clear();
}

/**
 * What other processes changed in compounds is known before the index is relied on whole
 * (a list of all compounds, an identity looked up before a new number is given, a search).
 */
export async function catchUpCompounds(deps: Pick<Deps, 'store' | 'search' | 'config' | 'changes'>): Promise<void> {
  if (!deps.changes.shared) return;
  await deps.changes.caughtUp();
  await settleCompounds(deps);
}

/** Makes sure compound `id` is in the index as the store holds it, when other processes write too. */
export async function knowCompound(deps: Pick<Deps, 'store' | 'search' | 'config' | 'changes'>, id: number): Promise<void> {
  if (!deps.changes.shared || !(id > 0)) return;
  const index = compoundIndex(deps);
  // Not known, or known to have changed: one compound read now, not the whole list.
  if (!index.has(id) || index.stale.has(id)) await refreshCompounds(deps, [id]);
}
