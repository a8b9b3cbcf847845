// One change at a time per compound: updates, deletes and conformer changes read the
// current state, write files, then commit; running two of them at once on one compound
// could number two conformers alike or delete files another change still needs.
const tails = new Map<string, Promise<unknown>>();

export async function withCompoundLock<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const before = tails.get(key) ?? Promise.resolve();
  const run = before.then(fn, fn);
  const tail = run.catch(() => undefined);
  tails.set(key, tail);
  try {
    return await run;
  } finally {
    if (tails.get(key) === tail) tails.delete(key);
  }
}
