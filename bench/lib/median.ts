// The round a benchmark reports: this machine's speed moves by a third within minutes, so a
// figure is measured in rounds and the round with the median ratio stands for them.

/** The item whose `key` is the median of all the items' (of two middle ones, the upper). */
export function medianBy<T>(items: readonly T[], key: (item: T) => number): T {
  if (items.length === 0) throw new Error('medianBy: no items');
  return [...items].sort((a, b) => key(a) - key(b))[Math.floor(items.length / 2)]!;
}
