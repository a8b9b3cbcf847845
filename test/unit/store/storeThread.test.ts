// The embedded store's Oxigraph runs in a thread of its own: the event loop keeps turning
// while a large record is applied there, a read is answered between the records of a long
// queue of writes, a record is not held back by a run of reads, a commit's result is
// visible to every read sent after it resolved, and a graph read while a write to it lands
// is not kept in memory in its old state.
import { expect } from 'chai';
import { DataFactory } from 'n3';
import { tempDir } from '../../helpers/app.ts';
import { TripleStore } from '../../../src/store/embedded/store.ts';
import { LoopBudget } from '../../../src/store/embedded/loopBudget.ts';
import { OxThread } from '../../../src/store/embedded/oxThread.ts';
import { currentPlan } from '../../../src/store/embedded/layout.ts';
import { encodeOps } from '../../../src/store/writeOps.ts';

const { quad, namedNode, literal } = DataFactory;
const G = 'http://example.org/dataset/1';
const V = namedNode('http://example.org/v');
const triples = (graph: string, n: number, tag: string) => Array.from({ length: n }, (_, i) => quad(namedNode(`${graph}/entry/${i}`), V, literal(`${tag} ${i}`)));

describe('embedded store: Oxigraph in its own thread', () => {
  let store: TripleStore;
  beforeEach(async () => { store = await TripleStore.open(tempDir()); });
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

  it('the event loop keeps turning while a record of 30,000 triples is applied', async () => {
    const quads = triples(G, 30_000, 'v');
    const turns = turnCounter();
    await store.replaceGraph(G, quads);
    turns.stop();
    // Applied on the event loop, the load held it for one turn (tens of milliseconds).
    expect(turns.now()).to.be.above(10);
    expect(await store.graph(G)).to.have.length(30_000);
  });

  it('a read sent behind a long queue of records is answered before the queue ends', async () => {
    await store.replaceGraph(`${G}/other`, triples(`${G}/other`, 3, 'x'));
    const order: string[] = [];
    const writes = Array.from({ length: 20 }, (_, i) => store.replaceGraph(`${G}/${i}`, triples(`${G}/${i}`, 3_000, 'v')).then(() => { order.push(`write ${i}`); }));
    // Sent once the first records are in the thread's queue.
    await new Promise((r) => setTimeout(r, 30));
    const read = store.describe(`${G}/other`, [namedNode(`${G}/other/entry/0`)]).then((rows) => {
      order.push('read');
      return rows;
    });
    const [rows] = await Promise.all([read, ...writes]);
    expect(rows).to.have.length(1);
    expect(order.filter((x) => x.startsWith('write'))).to.deep.equal(Array.from({ length: 20 }, (_, i) => `write ${i}`));
    expect(order.indexOf('read'), order.join(', ')).to.be.below(order.length - 1);
  });

  it('a record is applied before the reads sent behind it at once, not after them', async () => {
    const { thread } = await OxThread.start(currentPlan(tempDir()));
    try {
      const order: string[] = [];
      // One message batch for the thread: the record, then 200 reads.
      const applied = thread.apply(encodeOps([{ op: 'add', graph: G, quads: triples(G, 10, 'v') }])).then(() => { order.push('apply'); });
      const reads = Array.from({ length: 200 }, (_, i) => thread.read<number>({ kind: 'size' }).then((n) => { order.push(`read ${i}`); return n; }));
      const sizes = await Promise.all(reads);
      await applied;
      expect(order.indexOf('apply'), order.slice(0, 5).join(', ')).to.equal(0);
      expect(sizes.every((n) => n === 10)).to.equal(true);
    } finally {
      await thread.close();
    }
  });

  it('commits made at once resolve in order, each visible to the reads sent after it', async () => {
    const done: number[] = [];
    const writes = Array.from({ length: 5 }, (_, i) => store.replaceGraph(G, [quad(namedNode(G), V, literal(String(i)))]).then(async () => {
      done.push(i);
      return (await store.graph(G)).map((q) => Number(q.object.value));
    }));
    const seen = await Promise.all(writes);
    expect(done).to.deep.equal([0, 1, 2, 3, 4]);
    // Each read saw its own commit or a later one, never an earlier.
    seen.forEach((values, i) => expect(values[0]).to.be.at.least(i));
    expect((await store.graph(G)).map((q) => q.object.value)).to.deep.equal(['4']);
  });

  it('a graph read while a write to it lands is not kept in its old state', async () => {
    await store.replaceGraph(G, triples(G, 2_000, 'old'));
    for (let round = 0; round < 10; round++) {
      const tag = `new${round}`;
      const read = store.graph(G);
      const write = store.replaceGraph(G, triples(G, 2_000, tag));
      await Promise.all([read, write]);
      const after = await store.graph(G);
      expect(new Set(after.map((q) => q.object.value.split(' ')[0])), `round ${round}`).to.deep.equal(new Set([tag]));
    }
  });

  it('a graph kept in memory is read at once', async () => {
    await store.replaceGraph(G, triples(G, 20, 'v'));
    await store.graph(G);
    expect(store.isCached(G)).to.equal(true);
    const turns = turnCounter();
    const at = turns.now();
    const quads = await store.graph(G);
    const cachedAt = turns.now();
    turns.stop();
    expect(quads).to.have.length(20);
    expect(cachedAt).to.equal(at);
  });

  it('once the thread has died (as after an Oxigraph trap), reads and writes answer 503', async () => {
    await store.replaceGraph(G, triples(G, 5, 'v'));
    // The thread is private: reached here to stand for an Oxigraph trap, which kills it.
    await (store as unknown as { thread: { worker: { terminate(): Promise<number> } } }).thread.worker.terminate();
    const status = (p: Promise<unknown>) => p.then(() => 'resolved', (e: { status?: number; message: string }) => `${e.status}: ${e.message}`);
    expect(await status(store.hasGraph(`${G}/never`))).to.match(/^503: the store's engine failed/);
    expect(await status(store.replaceGraph(`${G}/2`, triples(`${G}/2`, 2, 'w')))).to.match(/^503: /);
    expect(await status(store.size())).to.match(/^503: /);
  });

  it('a turn releases waiting steps one after another while its budget lasts, and the next turn takes the rest', async () => {
    // A budget wide enough that a busy machine's preemption does not end a turn early.
    const budget = new LoopBudget(50);
    const spin = (ms: number) => {
      for (const end = performance.now() + ms; performance.now() < end;);
    };
    const turns = turnCounter();
    await budget.turn();
    spin(60); // this turn's budget is spent: the steps below wait
    const ran: Array<{ step: number; turn: number }> = [];
    await Promise.all(Array.from({ length: 6 }, async (_, step) => {
      await budget.turn();
      ran.push({ step, turn: turns.now() });
      spin(step === 2 ? 60 : 0.1);
    }));
    turns.stop();
    expect(ran.map((r) => r.step)).to.deep.equal([0, 1, 2, 3, 4, 5]);
    // Steps 0-2 share a turn; step 2 spent its budget, so 3-5 share the next one.
    expect(new Set(ran.slice(0, 3).map((r) => r.turn)).size).to.equal(1);
    expect(new Set(ran.slice(3).map((r) => r.turn)).size).to.equal(1);
    expect(ran[3]!.turn).to.be.above(ran[2]!.turn);
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
});
