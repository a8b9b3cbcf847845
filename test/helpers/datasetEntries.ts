// Part of a dataset as N-Triples: uploading it makes a dataset that shares the original's
// features (and so a training and a test set with the same measured feature).

/** The N-Triples of a dataset with only the data entries whose number passes `keep`. */
export function entries(nt: string, keep: (n: number) => boolean): string {
  const lines = nt.split('\n').filter((l) => l.trim());
  const entry = (l: string) => /\/entry\/(\d+)>/.exec(l)?.[1];
  const kept = lines.filter((l) => { const n = entry(l); return n === undefined ? !l.startsWith('_:') : keep(Number(n)); });
  const values = new Set(kept.flatMap((l) => /#values> (_:\S+) \.$/.exec(l)?.[1] ?? []));
  return [...kept, ...lines.filter((l) => values.has(l.split(' ')[0]!))].join('\n') + '\n';
}
