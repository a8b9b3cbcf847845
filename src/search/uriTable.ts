// The index's keys by slot and slots by key, without a string per compound. A key is
// almost always a prefix and a number (`/compound/<n>`): such a key is kept as the
// prefix's number and the integer, found through an open-addressing table of slots.
// Any other key (and keys of prefixes past the table's room) is kept as a string.

/** Prefix numbers: 0 marks a removed slot, ODD a key kept as a string, 1..254 a prefix. */
const REMOVED = 0;
const ODD = 255;
/** Most digits of a key's number (then below 2^32 or kept as a string). */
const DIGITS = 10;
const MAX_LOAD = 0.7;

export class UriTable {
  private prefixOf = new Uint8Array(1024);
  private numberOf = new Uint32Array(1024);
  private readonly prefixes: string[] = [''];
  private readonly prefixIds = new Map<string, number>();
  /** Slots + 1 by hash of (prefix, number), 0 empty; a removed slot's entry stays until the next rebuild. */
  private table = new Int32Array(1024);
  /** Entries in `table`, removed slots' included. */
  private filled = 0;
  private readonly oddKey = new Map<number, string>();
  private readonly oddSlot = new Map<string, number>();
  private used = 0;
  private live = 0;

  /** Slots handed out, removed ones included. */
  get slots(): number {
    return this.used;
  }

  /** Slots holding a key. */
  get size(): number {
    return this.live;
  }

  /** Gives `key` the next slot (the caller removed any slot it had). */
  push(key: string): number {
    const slot = this.used++;
    if (slot >= this.prefixOf.length) this.resize(Math.ceil(slot * 1.5) + 1);
    this.live++;
    const parsed = this.parse(key, true);
    if (!parsed) {
      this.prefixOf[slot] = ODD;
      this.oddKey.set(slot, key);
      this.oddSlot.set(key, slot);
      return slot;
    }
    this.prefixOf[slot] = parsed.prefix;
    this.numberOf[slot] = parsed.n;
    // A rehash places every live numbered slot, this one included.
    if (this.filled + 1 > this.table.length * MAX_LOAD) this.rehash(this.live / 0.5);
    else this.place(slot);
    return slot;
  }

  slotOf(key: string): number | undefined {
    const parsed = this.parse(key, false);
    if (!parsed) return this.oddSlot.get(key);
    const mask = this.table.length - 1;
    for (let i = hash(parsed.prefix, parsed.n) & mask; ; i = (i + 1) & mask) {
      const s = this.table[i]!;
      if (s === 0) return undefined;
      if (this.prefixOf[s - 1] === parsed.prefix && this.numberOf[s - 1] === parsed.n) return s - 1;
    }
  }

  /** The key of a slot; undefined once removed. */
  keyAt(slot: number): string | undefined {
    const p = this.prefixOf[slot];
    if (slot >= this.used || p === REMOVED) return undefined;
    return p === ODD ? this.oddKey.get(slot) : this.prefixes[p!]! + this.numberOf[slot];
  }

  /** True when the slot holds a key (is not removed). */
  holds(slot: number): boolean {
    return slot < this.used && this.prefixOf[slot] !== REMOVED;
  }

  /** Removes the key of `slot` (its slot stays used). */
  clear(slot: number): void {
    if (!this.holds(slot)) return;
    if (this.prefixOf[slot] === ODD) {
      this.oddSlot.delete(this.oddKey.get(slot)!);
      this.oddKey.delete(slot);
    }
    this.prefixOf[slot] = REMOVED;
    this.live--;
  }

  /**
   * A table of the live keys only, slots renumbered in order; answers it and the new slot
   * of each old one (-1: removed).
   */
  compacted(): { table: UriTable; renumbered: Int32Array } {
    const t = new UriTable();
    t.resize(this.live);
    t.prefixes.push(...this.prefixes.slice(1));
    for (const [p, id] of this.prefixIds) t.prefixIds.set(p, id);
    t.table = new Int32Array(powerOfTwo(this.live / MAX_LOAD));
    const renumbered = new Int32Array(this.used).fill(-1);
    for (let slot = 0; slot < this.used; slot++) {
      const p = this.prefixOf[slot]!;
      if (p === REMOVED) continue;
      const to = t.used++;
      t.live++;
      renumbered[slot] = to;
      t.prefixOf[to] = p;
      if (p === ODD) {
        const key = this.oddKey.get(slot)!;
        t.oddKey.set(to, key);
        t.oddSlot.set(key, to);
      } else {
        t.numberOf[to] = this.numberOf[slot]!;
        t.place(to);
      }
    }
    return { table: t, renumbered };
  }

  /** Bytes held (typed arrays; keys kept as strings estimated at 2 bytes a character). */
  get byteLength(): number {
    let bytes = this.prefixOf.byteLength + this.numberOf.byteLength + this.table.byteLength;
    for (const key of this.oddKey.values()) bytes += 2 * key.length;
    return bytes;
  }

  /**
   * Prefix number and integer of a key ending in digits: the number is the longest run of
   * at most DIGITS digits at its end written without leading zeros (`/c/007` is `/c/00`
   * and 7), so prefix + number spells the key again. `add` gives a new prefix a number if
   * there is room.
   */
  private parse(key: string, add: boolean): { prefix: number; n: number } | undefined {
    const end = key.length;
    let start = end;
    while (start > 0 && end - start < DIGITS && isDigit(key.charCodeAt(start - 1))) start--;
    if (start === end) return undefined;
    while (start < end - 1 && key.charCodeAt(start) === 48) start++;
    let n = 0;
    for (let i = start; i < end; i++) n = n * 10 + key.charCodeAt(i) - 48;
    if (n > 0xffffffff) return undefined;
    const text = key.slice(0, start);
    let prefix = this.prefixIds.get(text);
    if (prefix === undefined) {
      if (!add || this.prefixes.length >= ODD) return undefined;
      prefix = this.prefixes.push(text) - 1;
      this.prefixIds.set(text, prefix);
    }
    return { prefix, n };
  }

  private place(slot: number): void {
    const mask = this.table.length - 1;
    let i = hash(this.prefixOf[slot]!, this.numberOf[slot]!) & mask;
    while (this.table[i] !== 0) i = (i + 1) & mask;
    this.table[i] = slot + 1;
    this.filled++;
  }

  /** A table for `room` entries holding the live numbered slots only (removed ones' entries dropped). */
  private rehash(room: number): void {
    this.table = new Int32Array(powerOfTwo(Math.max(1024, room)));
    this.filled = 0;
    for (let slot = 0; slot < this.used; slot++) {
      const p = this.prefixOf[slot];
      if (p !== REMOVED && p !== ODD) this.place(slot);
    }
  }

  private resize(capacity: number): void {
    const prefixOf = new Uint8Array(capacity);
    prefixOf.set(this.prefixOf.subarray(0, Math.min(this.used, capacity)));
    const numberOf = new Uint32Array(capacity);
    numberOf.set(this.numberOf.subarray(0, Math.min(this.used, capacity)));
    this.prefixOf = prefixOf;
    this.numberOf = numberOf;
  }
}

const isDigit = (c: number): boolean => c >= 48 && c <= 57;

function powerOfTwo(atLeast: number): number {
  return 2 ** Math.ceil(Math.log2(Math.max(2, atLeast)));
}

/** A 32-bit mix of prefix and number (murmur3's finaliser). */
function hash(prefix: number, n: number): number {
  let h = (n ^ Math.imul(prefix, 0x9e3779b1)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}
