// Numbers for minted resource IRIs (/dataset/3, /compound/17): one counter per collection,
// started above the highest id already in the store, so an id is never given twice nor
// reused while something may still refer to it. In one process a counter in memory does;
// API processes that share a store draw from one counter in Redis (INCR is atomic).
import type { Redis } from 'ioredis';
import { redisClient, whenReady } from '../tasks/redis/client.ts';
import { ServiceUnavailable } from '../errors.ts';

export interface IdAllocator {
  /** The next id of `collection`; `highest` reads the highest id in the store (called once). */
  next(collection: string, highest: () => Promise<number>): Promise<number>;
  close(): Promise<void>;
}

export class LocalIds implements IdAllocator {
  private readonly last = new Map<string, Promise<number>>();

  next(collection: string, highest: () => Promise<number>): Promise<number> {
    // Chained promises: concurrent calls in one process never see the same value.
    const previous = this.last.get(collection) ?? highest();
    const id = previous.then((n) => n + 1);
    this.last.set(collection, id);
    return id;
  }

  async close(): Promise<void> {}
}

export class RedisIds implements IdAllocator {
  private readonly client: Redis;
  private readonly seeded = new Set<string>();

  constructor(url: string, private readonly prefix = 'opentox') {
    this.client = redisClient(url);
  }

  next(collection: string, highest: () => Promise<number>): Promise<number> {
    return this.reserve(collection, 1, highest);
  }

  /** The first of `count` consecutive ids of `collection`, all given to the caller alone. */
  async reserve(collection: string, count: number, highest: () => Promise<number>): Promise<number> {
    const key = `${this.prefix}:id:${collection}`;
    try {
      await whenReady(this.client);
      if (!this.seeded.has(key)) {
        // NX: the first process to start seeds the counter; later ones leave it as it is.
        await this.client.set(key, String(await highest()), 'NX');
        this.seeded.add(key);
      }
      return (await this.client.incrby(key, count)) - count + 1;
    } catch (e) {
      throw new ServiceUnavailable('cannot mint a new id: Redis does not answer', { cause: e, details: (e as Error).message, retryAfterSeconds: 5 });
    }
  }

  async close(): Promise<void> {
    this.client.disconnect();
  }
}
