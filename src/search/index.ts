// The compact in-memory structure index: per compound slot, a Morgan fingerprint
// with its popcount in the similarity kernel's memory, a pattern fingerprint of FP_WORDS
// 32-bit words packed into a growable Uint32Array, the URI (uriTable.ts), and hashes of
// the identity keys. The rest of an entry (canonical SMILES, InChIKey, pickle) stays in the index file
// and is read back when needed; an index without a file holds it in memory.
// Slots are never reused while running, so slot order is the order compounds were stored.
import { FP_WORDS } from '../chem/fingerprints.ts';
import { FingerprintSet } from './fingerprintSet.ts';
import { UriTable } from './uriTable.ts';

export interface IndexEntry {
  uri: string;
  canonicalSmiles: string;
  inchiKey?: string;
  morgan: Uint32Array;
  pattern: Uint32Array;
  pickle: Uint8Array;
}

/** Reads back the entry written at byte `at` of the index file. */
export interface EntryReader {
  read(at: number): IndexEntry;
  /** The pickles of the entries at `ats` (ascending where they can be: read together). */
  readPickles(ats: ArrayLike<number>): Uint8Array[];
}

/** A removed compound's pickle: nothing RDKit reads, so it matches nothing. */
const EMPTY = new Uint8Array(0);

/** Capacity grows by this factor (a little spare, not twice what is needed). */
const GROWTH = 1.5;

type Held = Pick<IndexEntry, 'canonicalSmiles' | 'inchiKey' | 'pickle'>;

export class StructureIndex {
  /** Morgan fingerprints by slot, scanned by similarity search. */
  morgan = new FingerprintSet(FP_WORDS, 1024);
  pattern = new Uint32Array(1024 * FP_WORDS);
  /** URI by slot and slot by URI. */
  private uris = new UriTable();
  /** Where the file holds each slot's entry (-1: held in memory, in `held`). */
  private at = new Float64Array(1024);
  /** Hashes of canonical SMILES and InChIKey by slot (0: none); exact search compares these first. */
  private smilesHash = new Uint32Array(1024);
  private keyHash = new Uint32Array(1024);
  private readonly held = new Map<number, Held>();

  /** `reader` reads entries that `add` was told are in the file. */
  constructor(private reader?: EntryReader) {}

  /** Slots in use, removed ones included (the end of every scan). */
  get slots(): number {
    return this.uris.slots;
  }

  get size(): number {
    return this.uris.size;
  }

  has(uri: string): boolean {
    return this.uris.slotOf(uri) !== undefined;
  }

  slotOf(uri: string): number | undefined {
    return this.uris.slotOf(uri);
  }

  /** The URI of a slot; undefined once removed. */
  uriAt(slot: number): string | undefined {
    return this.uris.keyAt(slot);
  }

  /** True when the slot holds a compound (is not removed). */
  holds(slot: number): boolean {
    return this.uris.holds(slot);
  }

  /** URIs of the compounds held, in slot order. */
  *keys(): Generator<string> {
    for (let slot = 0; slot < this.uris.slots; slot++) {
      const uri = this.uris.keyAt(slot);
      if (uri !== undefined) yield uri;
    }
  }

  /** Reads entries from `reader` from now on (the index file, once open). */
  readFrom(reader: EntryReader): void {
    this.reader = reader;
  }

  /** Adds or replaces the entry of `entry.uri`; `at` is where the index file holds it, if it does. */
  add(entry: IndexEntry, at = -1): number {
    this.remove(entry.uri);
    const slot = this.uris.push(entry.uri);
    this.grow(slot + 1);
    this.morgan.set(slot, entry.morgan);
    this.pattern.set(entry.pattern.subarray(0, FP_WORDS), slot * FP_WORDS);
    this.smilesHash[slot] = hash(entry.canonicalSmiles);
    this.keyHash[slot] = entry.inchiKey ? hash(entry.inchiKey) : 0;
    this.relocate(slot, at >= 0 && this.reader ? at : -1, entry);
    return slot;
  }

  /** Records that the file holds the entry of `slot` at byte `at` (after a rewrite). */
  relocate(slot: number, at: number, entry?: Held): void {
    this.at[slot] = at;
    if (at >= 0) this.held.delete(slot);
    else if (entry) this.held.set(slot, { canonicalSmiles: entry.canonicalSmiles, inchiKey: entry.inchiKey, pickle: entry.pickle });
  }

  remove(uri: string): boolean {
    const slot = this.uris.slotOf(uri);
    if (slot === undefined) return false;
    this.uris.clear(slot);
    this.held.delete(slot);
    this.at[slot] = -1;
    this.smilesHash[slot] = 0;
    this.keyHash[slot] = 0;
    // An all-zero fingerprint never passes a screen or reaches a positive threshold.
    this.morgan.clear(slot);
    this.pattern.fill(0, slot * FP_WORDS, (slot + 1) * FP_WORDS);
    return true;
  }

  /** Slots whose canonical SMILES or InChIKey equals one given. */
  lookup(keys: { canonicalSmiles?: string; inchiKey?: string }): number[] {
    const smiles = keys.canonicalSmiles ? hash(keys.canonicalSmiles) : 0;
    const key = keys.inchiKey ? hash(keys.inchiKey) : 0;
    const found: number[] = [];
    for (let slot = 0; slot < this.uris.slots; slot++) {
      const maybeSmiles = smiles !== 0 && this.smilesHash[slot] === smiles;
      const maybeKey = key !== 0 && this.keyHash[slot] === key;
      if (!maybeSmiles && !maybeKey) continue;
      // Equal hashes: the stored keys decide.
      const e = this.entry(slot)!;
      if ((maybeSmiles && e.canonicalSmiles === keys.canonicalSmiles) || (maybeKey && e.inchiKey === keys.inchiKey)) found.push(slot);
    }
    return found;
  }

  /** The pickle of a slot (the structure a substructure match reads). */
  pickle(slot: number): Uint8Array | undefined {
    return this.entry(slot)?.pickle;
  }

  /** The pickles of `slots` (empty for removed ones), those in the file read together. */
  pickles(slots: ArrayLike<number>): Uint8Array[] {
    const out: Uint8Array[] = new Array(slots.length).fill(EMPTY);
    const inFile: number[] = [];
    for (let i = 0; i < slots.length; i++) {
      const slot = slots[i]!;
      if (!this.uris.holds(slot)) continue;
      const held = this.held.get(slot);
      if (held) out[i] = held.pickle;
      else inFile.push(i);
    }
    if (inFile.length === 0) return out;
    const read = this.reader!.readPickles(inFile.map((i) => this.at[slots[i]!]!));
    inFile.forEach((i, k) => (out[i] = read[k]!));
    return out;
  }

  /** The stored entry of a slot. */
  entry(slot: number): IndexEntry | undefined {
    const uri = this.uris.keyAt(slot);
    if (uri === undefined) return undefined;
    const held = this.held.get(slot);
    if (!held) return this.reader!.read(this.at[slot]!);
    return { uri, ...held, morgan: this.morgan.row(slot), pattern: this.pattern.subarray(slot * FP_WORDS, (slot + 1) * FP_WORDS) };
  }

  /** Bytes held by the index (typed arrays, what is held in memory; strings estimated at 2 bytes/char). */
  memoryBytes(): number {
    let bytes = this.morgan.byteLength + this.pattern.byteLength + this.at.byteLength + this.smilesHash.byteLength + this.keyHash.byteLength + this.uris.byteLength;
    for (const h of this.held.values()) bytes += h.pickle.byteLength + 2 * (h.canonicalSmiles.length + (h.inchiKey?.length ?? 0));
    return bytes;
  }

  /**
   * Drops the slots of removed entries and sizes every array to the entries there are
   * (growth leaves up to half again as much room).
   * Renumbers slots, so only before any slot has been handed out (right after loading).
   */
  compact(): void {
    const live = this.size;
    const morgan = new FingerprintSet(FP_WORDS, live);
    const pattern = new Uint32Array(live * FP_WORDS);
    const at = new Float64Array(live);
    const smilesHash = new Uint32Array(live);
    const keyHash = new Uint32Array(live);
    const { table, renumbered } = this.uris.compacted();
    const held = [...this.held];
    this.held.clear();
    for (let slot = 0; slot < renumbered.length; slot++) {
      const to = renumbered[slot]!;
      if (to < 0) continue;
      morgan.copyRow(this.morgan, slot, to);
      pattern.set(this.pattern.subarray(slot * FP_WORDS, (slot + 1) * FP_WORDS), to * FP_WORDS);
      at[to] = this.at[slot]!;
      smilesHash[to] = this.smilesHash[slot]!;
      keyHash[to] = this.keyHash[slot]!;
    }
    for (const [slot, h] of held) this.held.set(renumbered[slot]!, h);
    this.morgan = morgan;
    this.pattern = pattern;
    this.at = at;
    this.smilesHash = smilesHash;
    this.keyHash = keyHash;
    this.uris = table;
  }

  private grow(slots: number): void {
    if (slots <= this.at.length) return;
    const capacity = Math.max(slots, Math.ceil(this.at.length * GROWTH));
    const pattern = new Uint32Array(capacity * FP_WORDS);
    pattern.set(this.pattern);
    this.pattern = pattern;
    const at = new Float64Array(capacity);
    at.set(this.at);
    this.at = at;
    for (const name of ['smilesHash', 'keyHash'] as const) {
      const grown = new Uint32Array(capacity);
      grown.set(this[name]);
      this[name] = grown;
    }
  }
}

/** FNV-1a over UTF-16 code units, never 0 (0 marks no key). */
function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0 || 1;
}
