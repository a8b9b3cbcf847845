// The job pool's threads: started by the calls that need them, one per call at once up to the
// pool's size, and kept while idle for the time given (starting one and loading its toolkits
// costs a second or two).
import { expect } from 'chai';
import { WorkerPool } from '../../../src/tasks/workerPool.ts';
import type { HttpError } from '../../../src/errors.ts';
import type { ParseReply } from '../../../src/chem/parseThread.ts';

/** parseStructure in a thread, as the request parser's threads run it (its default export). */
const PARSE = new URL('../../../src/chem/parseThread.ts', import.meta.url);

describe('worker pool threads', function () {
  this.timeout(60_000);

  it('calls at once start every thread, each with its toolkits loaded, and idle threads are kept for the idle time', async () => {
    // The idle time outlasts the threads' toolkit loading (seconds on a busy machine), which
    // one may finish long before the other.
    const pool = new WorkerPool(2, undefined, 10_000);
    try {
      expect(pool.threads).to.equal(0);
      const parse = (text: string) => pool.run<ParseReply>(PARSE, 'default', { text, format: 'smiles', options: {} });
      await Promise.all([parse('c1ccccc1O'), parse('CC(=O)O')]);
      expect(pool.threads).to.equal(2);
      // Loaded: a parse in a warm thread needs no toolkit start.
      const outcome = await parse('OCC');
      if (!outcome.ok) throw new Error(outcome.error.message);
      expect(outcome.value).to.have.property('smiles', 'CCO');
      const idleSince = Date.now();
      await new Promise((r) => setTimeout(r, 500));
      expect(pool.threads, 'kept while idle').to.equal(2);
      while (pool.threads > 0 && Date.now() - idleSince < 20_000) await new Promise((r) => setTimeout(r, 250));
      expect(pool.threads, 'let go after the idle time').to.equal(0);
      expect(Date.now() - idleSince, 'not before it').to.be.at.least(9_500);
    } finally {
      await pool.close();
    }
  });
});

describe('worker pool: order and cancels', function () {
  this.timeout(60_000);
  /** Busy for `ms`, answering when it started (the threads share the process's monotonic clock); it never looks at its cancel flag. */
  const BUSY = 'data:text/javascript,export function busy(ms) { const start = performance.timeOrigin + performance.now(); while (performance.timeOrigin + performance.now() < start + ms); return start; }';

  /** Counts its arrival and waits (up to 30 s) until two calls have arrived. */
  const MEET = 'data:text/javascript,export function meet(a) { Atomics.add(a, 0, 1); const end = Date.now() + 30000; while (Atomics.load(a, 0) < 2 && Date.now() < end) Atomics.wait(a, 0, Atomics.load(a, 0), 50); return Atomics.load(a, 0) >= 2; }';

  it('runs calls in the order they came, as many at once as it has threads', async () => {
    // One thread: the start times are the order the pool handed calls out, whatever the load.
    const single = new WorkerPool(1);
    try {
      const starts = await Promise.all(Array.from({ length: 12 }, () => single.run<number>(BUSY, 'busy', 5)));
      starts.slice(1).forEach((start, call) => expect(start, `call ${call + 1}`).to.be.above(starts[call] ?? Infinity));
    } finally {
      await single.close();
    }
    // Two threads: two calls meet inside the pool, each waiting for the other to arrive.
    const pair = new WorkerPool(2);
    try {
      const arrivals = new Int32Array(new SharedArrayBuffer(4));
      const met = await Promise.all([pair.run<boolean>(MEET, 'meet', arrivals), pair.run<boolean>(MEET, 'meet', arrivals)]);
      expect(met).to.deep.equal([true, true]);
    } finally {
      await pair.close();
    }
  });

  it('a call cancelled while it waits for a thread is dropped from the queue, and the rest still run', async () => {
    const pool = new WorkerPool(1);
    try {
      const first = pool.run<number>(BUSY, 'busy', 300);
      const controller = new AbortController();
      const cancelled = pool.run<number>(BUSY, 'busy', 120_000, { signal: controller.signal });
      const last = pool.run<number>(BUSY, 'busy', 1);
      controller.abort(new Error('cancelled by the test'));
      const outcome = await cancelled.then(() => 'ran', (e: Error) => e.message);
      expect(outcome).to.equal('cancelled by the test');
      const t = Date.now();
      await Promise.all([first, last]);
      // The cancelled call never took the thread: the last one did not wait its 120 s.
      expect(Date.now() - t).to.be.below(30_000);
    } finally {
      await pool.close();
    }
  });

  it('calls still waiting when the pool closes are refused with 503', async () => {
    const pool = new WorkerPool(1);
    const running = pool.run<number>(BUSY, 'busy', 200);
    const waiting = pool.run<number>(BUSY, 'busy', 1);
    await new Promise((r) => setTimeout(r, 50));
    const closed = pool.close();
    const refusal = await waiting.then(() => undefined, (e: HttpError) => e);
    expect(refusal?.status).to.equal(503);
    // The running call is asked to stop (it answers or is cancelled); close() waits for it.
    await running.catch(() => undefined);
    await closed;
  });

  it('a call that ignores its cancel loses its thread after the grace period, and the calls waiting behind it run on a new one', async () => {
    const pool = new WorkerPool(1, 300);
    try {
      const controller = new AbortController();
      const deaf = pool.run<number>(BUSY, 'busy', 120_000, { signal: controller.signal });
      const next = pool.run<number>(BUSY, 'busy', 1);
      await new Promise((r) => setTimeout(r, 500));
      const t = Date.now();
      controller.abort(new Error('cancelled by the test'));
      expect(await deaf.then(() => 'ran', (e: Error) => e.message)).to.equal('cancelled by the test');
      expect(await next).to.be.a('number');
      // The grace period and a new thread, not the 120 s the deaf call would have taken.
      expect(Date.now() - t).to.be.below(30_000);
      expect(pool.threads).to.equal(1);
    } finally {
      await pool.close();
    }
  });
});
