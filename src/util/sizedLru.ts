// Values kept by key up to a budget of their summed sizes, the least recently used evicted
// first: the store's cache of resource graphs, the datasets' cache of entry lists and the
// representation cache (src/http/cache.ts), whose entries grow after they are stored (each
// content coding of a body adds its bytes).

export interface SizedLruOptions<V> {
  /** A value bigger than this is not worth evicting others for, and is not kept (default: the budget). */
  largest?: number;
  /** Told of each value evicted for room or deleted (not of those dropped by clear()). */
  onEvict?: (key: string, value: V) => void;
}

export class SizedLru<V> {
  /** Insertion order is recency order: the first entry is the least recently used. */
  private readonly held = new Map<string, { value: V; size: number }>();
  private total = 0;
  private readonly largest: number;
  private readonly onEvict: ((key: string, value: V) => void) | undefined;

  constructor(private readonly budget: number, private readonly sizeOf: (value: V) => number, options: SizedLruOptions<V> = {}) {
    this.largest = options.largest ?? budget;
    this.onEvict = options.onEvict;
  }

  /** Values held. */
  get size(): number {
    return this.held.size;
  }

  /** The value under `key`, now the most recently used. */
  get(key: string): V | undefined {
    const slot = this.held.get(key);
    if (slot === undefined) return undefined;
    this.held.delete(key);
    this.held.set(key, slot);
    return slot.value;
  }

  /** The value under `key`, its recency unchanged. */
  peek(key: string): V | undefined {
    return this.held.get(key)?.value;
  }

  /**
   * Keeps `value` under `key`, replacing what was there. False when `value` is too large to
   * keep: what was under `key` goes all the same, since the caller meant to replace it.
   */
  set(key: string, value: V): boolean {
    this.delete(key);
    const size = this.sizeOf(value);
    if (size > this.largest) return false;
    this.held.set(key, { value, size });
    this.total += size;
    this.evict();
    return true;
  }

  /** Counts `bytes` more for the value under `key`, if held, and evicts for room. */
  grow(key: string, bytes: number): void {
    const slot = this.held.get(key);
    if (slot === undefined) return;
    slot.size += bytes;
    this.total += bytes;
    this.evict();
  }

  delete(key: string): void {
    const slot = this.held.get(key);
    if (slot === undefined) return;
    this.held.delete(key);
    this.total -= slot.size;
    this.onEvict?.(key, slot.value);
  }

  clear(): void {
    this.held.clear();
    this.total = 0;
  }

  private evict(): void {
    for (const key of this.held.keys()) {
      if (this.total <= this.budget) break;
      this.delete(key);
    }
  }
}
