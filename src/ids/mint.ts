// Minted resource IRIs (DESIGN: storage rules): /feature/17, /dataset/3, /model/5. Each
// collection keeps a counter, started from the highest id already in the store, so ids
// are never reused while the resource they named may still be referred to.
import type { Deps } from '../deps.ts';
import { uriOf } from '../deps.ts';

const counters = new WeakMap<object, Map<string, number>>();

/** The next free URI `{base}/{collection}/{n}`. */
export function mintUri(deps: Deps, collection: string): string {
  const prefix = uriOf(deps.config, `/${collection}/`);
  let byPrefix = counters.get(deps.store);
  if (!byPrefix) counters.set(deps.store, (byPrefix = new Map()));
  let last = byPrefix.get(prefix);
  if (last === undefined) last = highestId(deps, prefix);
  byPrefix.set(prefix, last + 1);
  return prefix + (last + 1);
}

function highestId(deps: Deps, prefix: string): number {
  let max = 0;
  for (const row of deps.store.select('graphs-with-prefix', { prefix })) {
    const id = Number(row.g.value.slice(prefix.length));
    if (Number.isInteger(id) && id > max) max = id;
  }
  return max;
}

/** The numeric id of `uri` in `collection`, or undefined when it is not one of ours. */
export function localId(deps: Deps, collection: string, uri: string): number | undefined {
  const prefix = uriOf(deps.config, `/${collection}/`);
  if (!uri.startsWith(prefix)) return undefined;
  const id = Number(uri.slice(prefix.length));
  return Number.isInteger(id) && id > 0 ? id : undefined;
}
