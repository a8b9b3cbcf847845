// The journal's framing and recovery: a torn last record is cut, earlier records survive,
// and writing goes on after it.
import { expect } from 'chai';
import { appendFileSync, readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { DataFactory } from 'n3';
import { tempDir } from '../../helpers/app.ts';
import { TripleStore } from '../../../src/store/embedded/store.ts';
import { Journal, readJournal } from '../../../src/store/embedded/journal.ts';
import { segmentFile } from '../../../src/store/embedded/layout.ts';
import { DC } from '../../../src/rdf/vocab.ts';

const { quad, namedNode, literal } = DataFactory;
const g = (i: number) => `http://example.org/r/${i}`;
const title = (i: number, text: string) => [quad(namedNode(g(i)), DC.title, literal(text))];

const titleOf = async (store: TripleStore, i: number) => (await store.graph(g(i))).map((q) => q.object.value);

describe('store journal', () => {
  it('group-commits concurrent appends in order, one record each', async () => {
    const dir = tempDir();
    const journal = new Journal({ dir, segment: 0, maxRecords: 0, maxBytes: 1 << 30 });
    const order: number[] = [];
    await Promise.all(Array.from({ length: 50 }, (_, i) => journal.append(Buffer.from(`r${i}`), () => { order.push(i); })));
    await journal.close();
    expect(order).to.deep.equal(Array.from({ length: 50 }, (_, i) => i));
    expect(readJournal(segmentFile(dir, 0)).records.map(String)).to.deep.equal(order.map((i) => `r${i}`));
  });

  it('gives the event loop a turn between the records of one batch once applying them has taken a few milliseconds', async () => {
    const dir = tempDir();
    const journal = new Journal({ dir, segment: 0, maxRecords: 0, maxBytes: 1 << 30 });
    const events: string[] = [];
    const spin = (ms: number) => {
      for (const end = performance.now() + ms; performance.now() < end;);
    };
    // The first append starts a write of its own; the three after it wait and are made
    // durable together, as one batch.
    await Promise.all(Array.from({ length: 4 }, (_, i) => journal.append(Buffer.from(`r${i}`), () => {
      events.push(`apply ${i}`);
      if (i === 1) setImmediate(() => events.push('turn'));
      spin(5);
    })));
    await journal.close();
    expect(events).to.deep.equal(['apply 0', 'apply 1', 'turn', 'apply 2', 'apply 3']);
  });

  const tears: Array<[string, (file: string) => void]> = [
    ['cut mid-payload', (file) => truncateSync(file, statSync(file).size - 5)],
    ['cut mid-header', (file) => truncateSync(file, lastStart(file) + 3)],
    ['garbage appended', (file) => appendFileSync(file, Buffer.from([9, 0, 0, 0, 1, 2, 3, 4, 65]))],
    ['last payload corrupted', (file) => {
      const buf = readFileSync(file);
      buf[buf.length - 2]! ^= 0xff;
      writeFileSync(file, buf);
    }],
  ];
  for (const [name, tear] of tears) {
    it(`recovers from a torn last record (${name}) and keeps writing`, async () => {
      const dir = tempDir();
      let store = await TripleStore.open(dir);
      for (let i = 0; i < 5; i++) await store.replaceGraph(g(i), title(i, `t${i}`));
      await store.close();
      tear(segmentFile(dir, 0));
      store = await TripleStore.open(dir);
      const lost = name === 'garbage appended' ? [] : [4];
      for (let i = 0; i < 5; i++) expect(await titleOf(store, i), `graph ${i}`).to.deep.equal(lost.includes(i) ? [] : [`t${i}`]);
      await store.replaceGraph(g(7), title(7, 'after'));
      await store.close();
      store = await TripleStore.open(dir);
      expect(await titleOf(store, 7)).to.deep.equal(['after']);
      expect(await titleOf(store, 3)).to.deep.equal(['t3']);
      expect(readJournal(segmentFile(dir, 0)).torn).to.equal(false);
      await store.close();
    });
  }

  it('refuses to start when a closed segment is damaged (acknowledged writes would vanish)', async () => {
    const dir = tempDir();
    const store = await TripleStore.open(dir);
    for (let i = 0; i < 4; i++) await store.replaceGraph(g(i), title(i, `t${i}`));
    await store.close();
    const next = new Journal({ dir, segment: 1, maxRecords: 0, maxBytes: 1 << 30 });
    await next.append(Buffer.from(JSON.stringify([{ op: 'drop', graph: g(0) }])));
    await next.close();
    truncateSync(segmentFile(dir, 0), statSync(segmentFile(dir, 0)).size - 3);
    let error: Error | undefined;
    await TripleStore.open(dir).catch((e: Error) => { error = e; });
    expect(error?.message).to.match(/segment 0 is damaged/);
  });
});

/** Byte offset where the last record of a journal file begins. */
function lastStart(file: string): number {
  const buf = readFileSync(file);
  let pos = 0;
  let last = 0;
  while (pos < buf.length) {
    last = pos;
    pos += 8 + buf.readUInt32LE(pos);
  }
  return last;
}
