// Ids for minted IRIs: never the same twice, in one process or across processes sharing
// one Redis, and always above what the store already holds.
import { expect } from 'chai';
import { rmSync } from 'node:fs';
import { LocalIds, RedisIds } from '../../src/ids/allocator.ts';
import { startRedis, type Redis } from '../../scripts/engines/redis.ts';
import { tempDir } from '../helpers/app.ts';

describe('id allocation', function () {
  this.timeout(30_000);

  it('in one process: concurrent calls get distinct ids above the highest stored one', async () => {
    const ids = new LocalIds();
    let seeds = 0;
    const highest = async () => { seeds++; return 41; };
    const got = await Promise.all(Array.from({ length: 50 }, () => ids.next('dataset', highest)));
    expect(new Set(got).size).to.equal(50);
    expect(Math.min(...got)).to.equal(42);
    expect(Math.max(...got)).to.equal(91);
    expect(seeds).to.equal(1);
    expect(await ids.next('model', async () => 0)).to.equal(1);
  });

  describe('across processes, through Redis', () => {
    let redis: Redis;
    let dir: string;
    before(async () => {
      dir = tempDir('opentox-redis-');
      redis = await startRedis(dir);
    });
    after(async () => {
      await redis?.stop();
      rmSync(dir, { recursive: true, force: true });
    });

    it('two allocators on one Redis never hand out the same id', async () => {
      const a = new RedisIds(redis.url, 'ids1');
      const b = new RedisIds(redis.url, 'ids1');
      try {
        const highest = async () => 100;
        const got = await Promise.all(Array.from({ length: 100 }, (_, i) => (i % 2 ? a : b).next('compound', highest)));
        expect(new Set(got).size).to.equal(100);
        expect(Math.min(...got)).to.equal(101);
        expect(Math.max(...got)).to.equal(200);
      } finally {
        await a.close();
        await b.close();
      }
    });

    it('answers 503 when Redis is away', async () => {
      const ids = new RedisIds('redis://127.0.0.1:1', 'ids2');
      try {
        const e = (await ids.next('compound', async () => 0).then(() => null, (x: unknown) => x)) as { status: number };
        expect(e.status).to.equal(503);
      } finally {
        await ids.close();
      }
    });
  });
});
