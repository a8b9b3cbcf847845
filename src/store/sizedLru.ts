// Values kept by key up to a budget of their summed sizes, the least recently used evicted
// first: the store's cache of resource graphs and the datasets' cache of entry lists.

export class SizedLru<V> {
  /** Insertion order is recency order: the first entry is the least recently used. */
  private readonly values = new Map<string, V>();
  private total = 0;

  /** `largest`: a value bigger than this is not worth evicting others for, and is not kept. */
  constructor(private readonly budget: number, private readonly sizeOf: (value: V) => number, private readonly largest = budget) {}

  get(key: string): V | undefined {
    const value = this.values.get(key);
    if (value !== undefined) {
      this.values.delete(key);
      this.values.set(key, value);
    }
    return value;
  }

  set(key: string, value: V): void {
    if (this.sizeOf(value) > this.largest) return;
    this.delete(key);
    this.values.set(key, value);
    this.total += this.sizeOf(value);
    for (const [oldest, old] of this.values) {
      if (this.total <= this.budget) break;
      this.values.delete(oldest);
      this.total -= this.sizeOf(old);
    }
  }

  clear(): void {
    this.values.clear();
    this.total = 0;
  }

  delete(key: string): void {
    const value = this.values.get(key);
    if (value === undefined) return;
    this.values.delete(key);
    this.total -= this.sizeOf(value);
  }
}
