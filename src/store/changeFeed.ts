// What the other processes sharing the store changed. In the distributed mode (a SPARQL
// store and REDIS_URL, docs/engines.md "Nothing shared but the engines") every process keeps
// things in memory that are made from the store: cached representations, the compound
// identity index, the structure search index. Each write therefore names the graphs it
// touched on a Redis stream before it is acknowledged, and every process reads that stream
// and forgets or re-reads what those graphs fed. A request first waits until this process has
// read every change published before it arrived (one Redis round trip, shared by the requests
// that arrive together), so a client that wrote through one process reads its write through
// any other: the processes behave as one service.
//
// One process (the embedded store, or a remote store without Redis) has no one to hear from:
// its feed does nothing.
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { redisClient, whenReady } from '../tasks/redis/client.ts';

/** What a process does with the changes of the others. */
export interface ChangeListener {
  /** `graphs` were written by another process (synchronous: requests wait for it). */
  changed(graphs: readonly string[]): void;
  /** Changes may have been missed (Redis restarted, or this process fell far behind): re-read all. */
  lost(): Promise<void>;
}

export interface ChangeFeed {
  /** True when other processes share the store (something to hear from). */
  readonly shared: boolean;
  /** Notes where the feed is now; changes after this point reach `start`'s listener. */
  open(): Promise<void>;
  /** Hands every change since `open` to `listener`, then each as it comes. */
  start(listener: ChangeListener): void;
  /** Tells the others that `graphs` changed. Never fails: told later when Redis is away. */
  publish(graphs: readonly string[]): Promise<void>;
  /** Resolves once every change published before the call has been handed to the listener. */
  caughtUp(): Promise<void>;
  close(): Promise<void>;
}

/** A process alone with its store. */
export class NoChangeFeed implements ChangeFeed {
  readonly shared = false;
  async open(): Promise<void> {}
  start(): void {}
  async publish(): Promise<void> {}
  async caughtUp(): Promise<void> {}
  async close(): Promise<void> {}
}

/** Entries kept on the stream (about): a process further behind than this re-reads everything. */
const KEEP = 100_000;
/** Longest a request waits for the feed (a slow listener or a stalled Redis must not hang it). */
const CATCH_UP_MS = 2_000;
const BATCH = 200;
/** Writes kept while Redis is away before they are told as one "anything may have changed". */
const UNSENT = 10_000;
const EVERYTHING = '*';

type StreamId = [number, number];

const parseId = (id: string): StreamId => {
  const [ms, seq] = id.split('-');
  return [Number(ms), Number(seq ?? 0)];
};
const before = (a: StreamId, b: StreamId): boolean => a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]);

export class RedisChangeFeed implements ChangeFeed {
  readonly shared = true;
  private readonly key: string;
  /** This process's mark on what it publishes, so it does not hear its own writes. */
  private readonly origin = randomBytes(8).toString('base64url');
  private readonly writer: Redis;
  private readonly reader: Redis;
  /** Id of the last entry handed on; undefined until known (then everything is re-read). */
  private last: string | undefined;
  private listener: ChangeListener | undefined;
  private closed = false;
  /** Changes Redis did not take (it was away), sent again by the next publish or the loop. */
  private unsent: string[] = [];
  private unannounced = false;
  private waiters: Array<{ target: StreamId; resolve: () => void; timer: NodeJS.Timeout }> = [];
  private queued: Promise<string | undefined> | undefined;
  private sending: Promise<unknown> = Promise.resolve();
  private loop: Promise<void> | undefined;
  /** Where reading was when the connection to Redis dropped (undefined: it did not). */
  private droppedAt: string | undefined;
  private drops = 0;

  constructor(url: string, private readonly onError: (message: string, error: unknown) => void, prefix = 'opentox') {
    this.key = `${prefix}:changes`;
    this.writer = redisClient(url);
    this.reader = redisClient(url);
    // The client sends a read again on its new connection by itself: the loop checks what the
    // stream still holds against where it was when the connection dropped.
    this.reader.on('close', () => {
      this.drops++;
      this.droppedAt ??= this.last ?? '0-0';
    });
  }

  async open(): Promise<void> {
    try {
      await whenReady(this.writer);
      this.last = (await this.newestId()) ?? '0-0';
    } catch (e) {
      // Redis away at start: the loop re-reads everything once it answers.
      this.onError('change feed: Redis does not answer; other processes\u2019 changes are read once it does', e);
    }
  }

  start(listener: ChangeListener): void {
    this.listener = listener;
    this.loop ??= this.run();
  }

  async publish(graphs: readonly string[]): Promise<void> {
    const text = [...this.unsent.splice(0), ...graphs].join('\n');
    if (text === '' || this.closed) return;
    try {
      await whenReady(this.writer, 1000);
      await this.writer.xadd(this.key, 'MAXLEN', '~', String(KEEP), '*', 'o', this.origin, 'g', text);
      this.unannounced = false;
    } catch (e) {
      this.unsent.push(text);
      // Past a bound, the others are told that anything may have changed.
      if (this.unsent.length > UNSENT) this.unsent = [EVERYTHING];
      if (!this.unannounced) this.onError('change feed: writes are not announced to the other processes (Redis does not answer); they will be once Redis is back', e);
      this.unannounced = true;
    }
  }

  caughtUp(): Promise<void> {
    if (this.closed || !this.listener) return Promise.resolve();
    // Requests that arrive while a look at the stream is under way share the next look,
    // which starts after they arrived: what was acknowledged before them is in its answer.
    if (!this.queued) {
      const look = this.sending.then(() => {
        this.queued = undefined;
        return this.newestId();
      });
      this.sending = look.catch(() => undefined);
      this.queued = look;
    }
    return this.queued.then(
      (target) => (target === undefined ? undefined : this.reached(parseId(target))),
      // Redis away: the store still answers; what the others changed is read once Redis is back.
      () => undefined,
    );
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const w of this.waiters.splice(0)) {
      clearTimeout(w.timer);
      w.resolve();
    }
    this.reader.disconnect();
    await this.loop?.catch(() => undefined);
    this.writer.disconnect();
  }

  private async newestId(): Promise<string | undefined> {
    const newest = await this.writer.xrevrange(this.key, '+', '-', 'COUNT', 1);
    return newest[0]?.[0];
  }

  /** Resolves when the entry `target` has been handed on (or after CATCH_UP_MS). */
  private reached(target: StreamId): Promise<void> {
    if (this.last !== undefined && !before(parseId(this.last), target)) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w.timer !== timer);
        resolve();
      }, CATCH_UP_MS).unref();
      this.waiters.push({ target, resolve, timer });
    });
  }

  private async run(): Promise<void> {
    let failing = false;
    while (!this.closed) {
      try {
        await whenReady(this.reader, 5000);
        if (this.unsent.length > 0) await this.publish([]);
        if (await this.missedSome()) {
          // Anything may have happened while this process was not reading: read it all again.
          this.last = (await this.newestId()) ?? '0-0';
          await this.listener!.lost();
        }
        failing = false;
        const answer = await this.reader.xread('COUNT', BATCH, 'BLOCK', 1000, 'STREAMS', this.key, this.last!);
        for (const [, entries] of answer ?? []) {
          for (const [id, fields] of entries) {
            const entry = new Map<string, string>();
            for (let i = 0; i + 1 < fields.length; i += 2) entry.set(fields[i]!, fields[i + 1]!);
            const graphs = entry.get('g');
            if (entry.get('o') === this.origin || !graphs) {
              // This process's own write: it knows.
            } else if (graphs.split('\n').includes(EVERYTHING)) await this.listener!.lost();
            else this.listener!.changed(graphs.split('\n'));
            this.last = id;
          }
        }
        this.wake();
      } catch (e) {
        if (this.closed) break;
        if (!failing) this.onError('change feed: cannot read from Redis; the changes of other processes are read once it answers', e);
        failing = true;
        await new Promise((r) => setTimeout(r, 500));
      }
    }
  }

  /**
   * True when changes may have been lost: the position was never known (Redis away at
   * start), the connection dropped and the stream no longer holds the entry reading had
   * reached (Redis restarted without it), or entries not yet read were trimmed away.
   */
  private async missedSome(): Promise<boolean> {
    if (this.last === undefined) return true;
    const dropped = this.droppedAt;
    const drops = this.drops;
    if (dropped !== undefined) {
      // Cleared only once answered: a check that fails (Redis still coming back) is made again.
      const lost = dropped === '0-0' || (await this.writer.xrange(this.key, dropped, dropped)).length === 0;
      if (this.drops === drops) this.droppedAt = undefined;
      if (lost) return true;
    }
    return this.trimmedPast(this.last);
  }

  /** True when entries after `id` were trimmed away before this process read them. */
  private async trimmedPast(id: string): Promise<boolean> {
    const info = (await this.writer.call('XINFO', 'STREAM', this.key).catch(() => undefined)) as unknown[] | undefined;
    if (!info) return false;
    const at = info.indexOf('max-deleted-entry-id');
    const deleted = at >= 0 ? String(info[at + 1]) : '0-0';
    return before(parseId(id), parseId(deleted));
  }

  private wake(): void {
    if (this.last === undefined) return;
    const last = parseId(this.last);
    const waiting = this.waiters;
    this.waiters = [];
    for (const w of waiting) {
      if (before(last, w.target)) this.waiters.push(w);
      else {
        clearTimeout(w.timer);
        w.resolve();
      }
    }
  }
}
