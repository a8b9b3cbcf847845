// The change feed of processes that share a store (src/store/changeFeed.ts), on a real Redis
// (Debian's redis-server, temp dir, free loopback port): what one process writes reaches the
// others and not itself, a request's wait covers every write acknowledged before it, and
// changes that may have been missed (Redis restarted empty, writes while Redis was away)
// make the others read everything again instead of going on with a stale picture.
import { expect } from 'chai';
import IORedis from 'ioredis';
import { startRedis, type Redis } from '../../../scripts/engines/redis.ts';
import { RedisChangeFeed, type ChangeListener } from '../../../src/store/changeFeed.ts';
import { tempDir } from '../../helpers/app.ts';
import { until } from '../../helpers/until.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

class Heard implements ChangeListener {
  graphs: string[] = [];
  losses = 0;
  changed(graphs: readonly string[]): void {
    this.graphs.push(...graphs);
  }
  async lost(): Promise<void> {
    this.losses++;
  }
}

describe('change feed between processes on Redis', function () {
  this.timeout(60_000);
  let redis: Redis;
  let dir: string;
  const feeds: RedisChangeFeed[] = [];
  const errors: string[] = [];

  const open = async (listener: ChangeListener, url = redis.url) => {
    const feed = new RedisChangeFeed(url, (message) => errors.push(message));
    feeds.push(feed);
    await feed.open();
    feed.start(listener);
    return feed;
  };

  before(async () => {
    dir = tempDir('opentox-feed-');
    redis = await startRedis(dir);
  });
  afterEach(async () => {
    for (const f of feeds.splice(0)) await f.close();
    errors.length = 0;
  });
  after(async () => {
    await redis?.stop();
  });

  it('a write of one process reaches the others, not itself, and caughtUp covers it', async () => {
    const a = new Heard();
    const b = new Heard();
    const one = await open(a);
    const two = await open(b);
    await one.publish(['http://x/compound/1', 'http://x/compound/1/conformer/2']);
    // The wait of a request that arrives after the write was acknowledged includes it.
    await two.caughtUp();
    expect(b.graphs).to.deep.equal(['http://x/compound/1', 'http://x/compound/1/conformer/2']);
    await one.caughtUp();
    expect(a.graphs).to.deep.equal([]);
    // Many requests at once share the looks at the stream, and each still sees what came before it.
    const writes = Array.from({ length: 50 }, (_, i) => `http://x/dataset/${i}`);
    await Promise.all(writes.map(async (g) => {
      await one.publish([g]);
      await two.caughtUp();
      expect(b.graphs).to.include(g);
    }));
    expect(b.losses).to.equal(0);
    expect(errors).to.deep.equal([]);
  });

  it('a process that starts after a write does not hear it; one that opened before does', async () => {
    const early = new Heard();
    const writer = await open(new Heard());
    // Opened (position noted) before the write, started (listening) after it, as boot.ts does.
    const feed = new RedisChangeFeed(redis.url, (m) => errors.push(m));
    feeds.push(feed);
    await feed.open();
    await writer.publish(['http://x/model/7']);
    feed.start(early);
    const late = new Heard();
    const after = await open(late);
    await feed.caughtUp();
    await after.caughtUp();
    expect(early.graphs).to.include('http://x/model/7');
    expect(late.graphs).to.not.include('http://x/model/7');
  });

  it('Redis restarted empty: the others read everything again; writes made meanwhile are told once it is back', async () => {
    const heard = new Heard();
    const writer = await open(new Heard());
    await open(heard);
    await writer.publish(['http://x/compound/3']);
    await until('the first change', () => heard.graphs.includes('http://x/compound/3'));
    const port = redis.port;
    await redis.stop();
    // Acknowledged while Redis is away: kept, never an error to the writer.
    await writer.publish(['http://x/compound/4']);
    expect(errors.some((e) => e.includes('not announced'))).to.equal(true);
    // The same port, a new empty data directory: everything it held is gone.
    redis = await startRedis(tempDir('opentox-feed-again-'), { port });
    await until('the listener to re-read everything', () => heard.losses >= 1);
    // The write kept while Redis was away is on the stream again for whoever reads it.
    const told = new IORedis(redis.url);
    const deadline = Date.now() + 10_000;
    let entries: Array<[string, string[]]> = [];
    while (Date.now() < deadline && !entries.some(([, f]) => f.join('\n').includes('http://x/compound/4'))) {
      entries = await told.xrange('opentox:changes', '-', '+');
      await sleep(50);
    }
    told.disconnect();
    expect(entries.some(([, f]) => f.join('\n').includes('http://x/compound/4'))).to.equal(true);
    await writer.publish(['http://x/compound/5']);
    await until('the next write', () => heard.graphs.includes('http://x/compound/5'));
  });
});
