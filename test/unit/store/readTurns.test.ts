// The embedded store's synchronous reads give the event loop a turn once they have run for
// their slice, so other clients are answered between the chunks of a long read; several
// readers waiting for that turn take one slice each, not all the same turn. Commits (their
// encoding and their application once durable) take turns in a budget of their own.
import { expect } from 'chai';
import { DataFactory } from 'n3';
import { tempDir } from '../../helpers/app.ts';
import { TripleStore } from '../../../src/store/embedded/store.ts';
import { EmbeddedStore } from '../../../src/store/embedded/embeddedStore.ts';
import { LoopBudget } from '../../../src/store/embedded/loopBudget.ts';

const { quad, namedNode, literal } = DataFactory;
const G = 'http://example.org/dataset/1';

describe('embedded store: reads between turns of the event loop', () => {
  let store: EmbeddedStore;
  const subjects = Array.from({ length: 20 }, (_, i) => namedNode(`${G}/entry/${i}`));

  beforeEach(async () => {
    // A slice of 0 ms: every read after the first of a turn waits for the next turn.
    store = new EmbeddedStore(await TripleStore.open(tempDir()), 0);
    await store.replaceGraph(G, subjects.map((s, i) => quad(s, namedNode('http://example.org/v'), literal(String(i)))));
  });
  afterEach(async () => { await store.close(); });

  /** Counts turns of the event loop (check phases) until stopped. */
  function turnCounter(): { now: () => number; stop: () => void } {
    let turns = 0;
    let running = true;
    const tick = () => {
      turns++;
      if (running) setImmediate(tick);
    };
    setImmediate(tick);
    return { now: () => turns, stop: () => { running = false; } };
  }

  it('three readers, five chunks each: one read per turn, and every reader gets all of its rows', async () => {
    const turns = turnCounter();
    const seen: number[] = [];
    const who: number[] = [];
    const reader = async (id: number) => {
      let rows = 0;
      for (let i = 0; i < 5; i++) {
        const chunk = await store.describe(G, subjects.slice(i * 4, i * 4 + 4));
        seen.push(turns.now());
        who.push(id);
        rows += chunk.length;
      }
      return rows;
    };
    const rows = await Promise.all([reader(0), reader(1), reader(2)]);
    turns.stop();
    expect(rows).to.deep.equal([20, 20, 20]);
    expect(seen).to.have.length(15);
    // No two reads in the same turn (before the fix, readers woken together all read at once).
    expect(new Set(seen).size).to.equal(seen.length);
    // In turn, first come first served: a reader that just read queues behind those waiting
    // (before, it asked again first and kept every turn until it was done).
    expect(who).to.deep.equal([0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2]);
  });

  it('five commits made at once are applied in five turns, in order, and reads meanwhile are not held behind them', async () => {
    const shared = new EmbeddedStore(await TripleStore.open(tempDir(), { writeSliceMs: 0 }), 0);
    try {
      const turns = turnCounter();
      const done: Array<{ i: number; turn: number }> = [];
      const read: number[] = [];
      const writes = Array.from({ length: 5 }, (_, i) => shared.replaceGraph(G, [quad(subjects[0]!, namedNode('http://example.org/v'), literal(String(i)))]).then(() => {
        done.push({ i, turn: turns.now() });
      }));
      const reader = (async () => {
        for (let i = 0; i < 5; i++) {
          await shared.hasGraph(G);
          read.push(turns.now());
        }
      })();
      await Promise.all([...writes, reader]);
      turns.stop();
      expect(done.map((d) => d.i)).to.deep.equal([0, 1, 2, 3, 4]);
      // One record applied a turn (before, a batch durable in one write was applied in one turn).
      expect(new Set(done.map((d) => d.turn)).size).to.equal(5);
      // One read a turn (a slice of 0 ms), in turns that follow one another.
      expect(new Set(read).size).to.equal(5);
      expect(read.at(-1)! - read[0]!).to.be.at.most(5);
      expect((await shared.graph(G)).map((q) => q.object.value)).to.deep.equal(['4']);
    } finally {
      await shared.close();
    }
  });

  it('a graph kept in memory is read at once, without waiting behind other readers', async () => {
    await store.graph(G);
    const turns = turnCounter();
    const others = Promise.all([0, 1, 2].map((i) => store.describe(G, subjects.slice(i, i + 1))));
    const at = turns.now();
    const quads = await store.graph(G);
    const cachedAt = turns.now();
    await others;
    const othersAt = turns.now();
    turns.stop();
    expect(quads).to.have.length(20);
    expect(cachedAt).to.equal(at);
    expect(othersAt).to.be.above(at);
  });

  it('a budget with a rest lets the loop go for as long as its last turn held it before the next waiting step', async () => {
    const budget = new LoopBudget(0, 1);
    const spin = (ms: number) => {
      for (const end = performance.now() + ms; performance.now() < end;);
    };
    await budget.turn();
    spin(30);
    const held = performance.now();
    await budget.turn();
    expect(performance.now() - held).to.be.at.least(25);
  });

  it('a reader alone is not held back within its slice', async () => {
    const wide = new EmbeddedStore(store.engine, 60_000);
    const turns = turnCounter();
    const at: number[] = [];
    for (let i = 0; i < 5; i++) {
      await wide.describe(G, subjects.slice(i * 4, i * 4 + 4));
      at.push(turns.now());
    }
    turns.stop();
    expect(new Set(at).size).to.equal(1);
  });
});
