// Minted resource IRIs (DESIGN: storage rules): /feature/17, /dataset/3, /model/5. Each
// collection keeps a counter, started from the highest id already in the store, so ids
// are never reused while the resource they named may still be referred to.
import type { Deps } from '../deps.ts';
import { uriOf } from '../deps.ts';
import { LocalIds, RedisIds, type IdAllocator } from './allocator.ts';
import { bound } from '../store/api.ts';

/**
 * One allocator per store: its counters start from what that store holds. With REDIS_URL
 * several processes mint ids for one store, so they draw from one counter in Redis.
 */
const allocators = new WeakMap<object, IdAllocator>();

function allocatorOf(deps: Pick<Deps, 'config' | 'store'>): IdAllocator {
  let ids = allocators.get(deps.store);
  if (!ids) allocators.set(deps.store, (ids = deps.config.redisUrl ? new RedisIds(deps.config.redisUrl) : new LocalIds()));
  return ids;
}

/** Closes the allocator of `store` (its Redis connection, if any); boot.ts calls it at shutdown. */
export async function closeIds(store: object): Promise<void> {
  await allocators.get(store)?.close();
  allocators.delete(store);
}

/** The next free URI `{base}/{collection}/{n}`. */
export async function mintUri(deps: Deps, collection: string): Promise<string> {
  const prefix = uriOf(deps.config, `/${collection}/`);
  return prefix + (await allocatorOf(deps).next(collection, () => highestId(deps, prefix)));
}

/**
 * With several processes (REDIS_URL) the first of `count` ids of `collection` no other
 * process is given; undefined in one process, where the collection's own counter does.
 */
export async function reserveShared(deps: Pick<Deps, 'config' | 'store'>, collection: string, count: number, highest: () => Promise<number>): Promise<number | undefined> {
  const ids = allocatorOf(deps);
  return ids instanceof RedisIds ? ids.reserve(collection, count, highest) : undefined;
}

async function highestId(deps: Deps, prefix: string): Promise<number> {
  let max = 0;
  for (const row of await deps.store.select('graphs-with-prefix', { prefix })) {
    const id = Number(bound(row, 'g').slice(prefix.length));
    if (Number.isInteger(id) && id > max) max = id;
  }
  return max;
}
