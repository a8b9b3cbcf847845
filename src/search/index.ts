// The compact in-memory structure index: per compound slot, a Morgan fingerprint
// with its popcount in the similarity kernel's memory, a pattern fingerprint of FP_WORDS
// 32-bit words packed into a growable Uint32Array, the pickle for matching and identity keys.
// Slots are never reused while running, so slot order is the order compounds were stored.
import { FP_WORDS } from '../chem/fingerprints.ts';
import { FingerprintSet } from './fingerprintSet.ts';

export interface IndexEntry {
  uri: string;
  canonicalSmiles: string;
  inchiKey?: string;
  morgan: Uint32Array;
  pattern: Uint32Array;
  pickle: Uint8Array;
}

export class StructureIndex {
  /** Morgan fingerprints by slot, scanned by similarity search. */
  readonly morgan = new FingerprintSet(FP_WORDS, 1024);
  pattern = new Uint32Array(1024 * FP_WORDS);
  /** URI by slot; undefined once removed. */
  readonly uris: Array<string | undefined> = [];
  readonly pickles: Array<Uint8Array | undefined> = [];
  private readonly slotByUri = new Map<string, number>();
  private readonly smilesOf: Array<string | undefined> = [];
  private readonly keyOf: Array<string | undefined> = [];
  private readonly bySmiles = new Map<string, Set<number>>();
  private readonly byKey = new Map<string, Set<number>>();

  /** Slots in use, removed ones included (the end of every scan). */
  get slots(): number {
    return this.uris.length;
  }

  get size(): number {
    return this.slotByUri.size;
  }

  has(uri: string): boolean {
    return this.slotByUri.has(uri);
  }

  slotOf(uri: string): number | undefined {
    return this.slotByUri.get(uri);
  }

  /** Adds or replaces the entry of `entry.uri`. */
  add(entry: IndexEntry): number {
    this.remove(entry.uri);
    const slot = this.uris.length;
    this.grow(slot + 1);
    this.morgan.set(slot, entry.morgan);
    this.pattern.set(entry.pattern.subarray(0, FP_WORDS), slot * FP_WORDS);
    this.uris.push(entry.uri);
    this.pickles.push(entry.pickle);
    this.smilesOf.push(entry.canonicalSmiles);
    this.keyOf.push(entry.inchiKey);
    this.slotByUri.set(entry.uri, slot);
    addTo(this.bySmiles, entry.canonicalSmiles, slot);
    if (entry.inchiKey) addTo(this.byKey, entry.inchiKey, slot);
    return slot;
  }

  remove(uri: string): boolean {
    const slot = this.slotByUri.get(uri);
    if (slot === undefined) return false;
    this.slotByUri.delete(uri);
    removeFrom(this.bySmiles, this.smilesOf[slot], slot);
    removeFrom(this.byKey, this.keyOf[slot], slot);
    this.uris[slot] = undefined;
    this.pickles[slot] = undefined;
    this.smilesOf[slot] = undefined;
    this.keyOf[slot] = undefined;
    // An all-zero fingerprint never passes a screen or reaches a positive threshold.
    this.morgan.clear(slot);
    this.pattern.fill(0, slot * FP_WORDS, (slot + 1) * FP_WORDS);
    return true;
  }

  /** Slots whose canonical SMILES or InChIKey equals one given. */
  lookup(keys: { canonicalSmiles?: string; inchiKey?: string }): number[] {
    const found = new Set<number>();
    if (keys.canonicalSmiles) for (const s of this.bySmiles.get(keys.canonicalSmiles) ?? []) found.add(s);
    if (keys.inchiKey) for (const s of this.byKey.get(keys.inchiKey) ?? []) found.add(s);
    return [...found].sort((a, b) => a - b);
  }

  /** The stored entry of a slot (for persistence). */
  entry(slot: number): IndexEntry | undefined {
    const uri = this.uris[slot];
    if (uri === undefined) return undefined;
    return {
      uri,
      canonicalSmiles: this.smilesOf[slot]!,
      inchiKey: this.keyOf[slot],
      morgan: this.morgan.row(slot),
      pattern: this.pattern.subarray(slot * FP_WORDS, (slot + 1) * FP_WORDS),
      pickle: this.pickles[slot]!,
    };
  }

  /** Bytes held by the index (typed arrays and pickles; strings estimated at 2 bytes/char). */
  memoryBytes(): number {
    let bytes = this.morgan.byteLength + this.pattern.byteLength;
    for (let s = 0; s < this.uris.length; s++) {
      bytes += (this.pickles[s]?.byteLength ?? 0) + 2 * ((this.uris[s]?.length ?? 0) + (this.smilesOf[s]?.length ?? 0) + (this.keyOf[s]?.length ?? 0));
    }
    return bytes;
  }

  private grow(slots: number): void {
    if (slots * FP_WORDS <= this.pattern.length) return;
    const pattern = new Uint32Array(Math.max(slots, (this.pattern.length / FP_WORDS) * 2) * FP_WORDS);
    pattern.set(this.pattern);
    this.pattern = pattern;
  }
}

function addTo(map: Map<string, Set<number>>, key: string, slot: number): void {
  const set = map.get(key);
  if (set) set.add(slot);
  else map.set(key, new Set([slot]));
}

function removeFrom(map: Map<string, Set<number>>, key: string | undefined, slot: number): void {
  if (key === undefined) return;
  const set = map.get(key);
  set?.delete(slot);
  if (set && set.size === 0) map.delete(key);
}
