// Minted resource IRIs (DESIGN: storage rules): /feature/17, /dataset/3, /model/5. Each
// collection keeps a counter, started from the highest id already in the store, so ids
// are never reused while the resource they named may still be referred to.
import type { Deps } from '../deps.ts';
import { uriOf } from '../deps.ts';
import { LocalIds, RedisIds, type IdAllocator } from './allocator.ts';

/**
 * One allocator per store: its counters start from what that store holds. With REDIS_URL
 * several processes mint ids for one store, so they draw from one counter in Redis.
 */
const allocators = new WeakMap<object, IdAllocator>();

/** The next free URI `{base}/{collection}/{n}`. */
export async function mintUri(deps: Deps, collection: string): Promise<string> {
  const prefix = uriOf(deps.config, `/${collection}/`);
  let ids = allocators.get(deps.store);
  if (!ids) allocators.set(deps.store, (ids = deps.config.redisUrl ? new RedisIds(deps.config.redisUrl) : new LocalIds()));
  return prefix + (await ids.next(collection, () => highestId(deps, prefix)));
}

async function highestId(deps: Deps, prefix: string): Promise<number> {
  let max = 0;
  for (const row of await deps.store.select('graphs-with-prefix', { prefix })) {
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
