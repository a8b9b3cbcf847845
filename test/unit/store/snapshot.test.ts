// Snapshots and compaction: the latest snapshot plus the journal tail rebuild exactly the
// live state, and writes that continue while a snapshot is written lose nothing.
import { expect } from 'chai';
import { existsSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { DataFactory } from 'n3';
import { tempDir } from '../../helpers/app.ts';
import { TripleStore } from '../../../src/store/embedded/store.ts';
import { currentPlan, scan } from '../../../src/store/embedded/layout.ts';
import { compact } from '../../../src/store/embedded/snapshotMerge.ts';
import { Journal } from '../../../src/store/embedded/journal.ts';
import { encodeOps } from '../../../src/store/writeOps.ts';
import { DC, OT, RDF } from '../../../src/rdf/vocab.ts';

const { quad, namedNode, literal, blankNode } = DataFactory;
const g = (i: number) => `http://example.org/r/${i}`;
const title = (i: number, text: string) => [quad(namedNode(g(i)), DC.title, literal(text))];

/** N-Quads with blank node labels blanked: Oxigraph gives each load fresh labels. */
const canonical = async (store: TripleStore) => (await store.dumpNQuads()).replace(/_:[A-Za-z0-9]+/g, '_:b').split('\n').filter(Boolean).sort();

describe('store snapshots', () => {
  it('snapshot plus journal tail equals the live state', async () => {
    const dir = tempDir();
    let store = await TripleStore.open(dir, { snapshotEvery: 10 });
    for (let i = 0; i < 25; i++) await store.replaceGraph(g(i), title(i, `first ${i}`));
    for (let i = 0; i < 25; i += 3) await store.addToGraph(g(i), [quad(namedNode(g(i)), DC.description, literal(`line\n"${i}"\\ é`, 'fr'))]);
    for (let i = 1; i < 25; i += 5) await store.removeFromGraph(g(i), title(i, `first ${i}`));
    for (let i = 2; i < 25; i += 7) await store.dropGraph(g(i));
    const entry = blankNode('e');
    await store.replaceGraph(g(100), [quad(namedNode(g(100)), OT.dataEntry, entry), quad(entry, RDF.type, OT.DataEntry), quad(entry, DC.title, literal('nested'))]);
    await store.commit([{ op: 'replace', graph: g(101), quads: title(101, 'a') }, { op: 'drop', graph: g(3) }]);
    await store.snapshotIdle();
    const live = await canonical(store);
    expect(scan(dir).snapshots.length).to.be.greaterThan(0);
    await store.close();

    store = await TripleStore.open(dir);
    expect(await canonical(store)).to.deep.equal(live);
    // The blank node is still one node linking the two triples.
    const rows = (await store.queryText(`SELECT ?t WHERE { GRAPH <${g(100)}> { <${g(100)}> <${OT.dataEntry.value}> ?e . ?e <${DC.title.value}> ?t } }`)) as Array<Record<string, { value: string }>>;
    expect(rows.map((r) => r.t!.value)).to.deep.equal(['nested']);
    await store.close();
  });

  it('keeps every write made while snapshots are written, and deletes what they replace', async () => {
    const dir = tempDir();
    let store = await TripleStore.open(dir, { snapshotEvery: 40 });
    const writes: Promise<void>[] = [];
    for (let round = 0; round < 30; round++) {
      for (let k = 0; k < 10; k++) {
        const i = round * 10 + k;
        writes.push(store.replaceGraph(g(i % 150), title(i % 150, `v${i}`)));
      }
      await new Promise((r) => setImmediate(r));
    }
    await Promise.all(writes);
    await store.snapshotIdle();
    const live = await canonical(store);
    expect(live.length).to.equal(150);
    for (let i = 150; i < 300; i++) expect((await store.graph(g(i % 150))).map((q) => q.object.value)).to.deep.equal([`v${i}`]);
    const layout = scan(dir);
    expect(layout.snapshots).to.have.length(1);
    expect(layout.segments[0]).to.equal(layout.snapshots[0]);
    await store.close();

    store = await TripleStore.open(dir);
    expect(await canonical(store)).to.deep.equal(live);
    await store.close();
  });

  it('merges snapshots graph by graph as replay would: blank nodes per write, canonical literals, removes, resets', async () => {
    const dir = tempDir();
    let store = await TripleStore.open(dir);
    const s = namedNode(g(1));
    const value = (text: string) => literal(text, namedNode('http://www.w3.org/2001/XMLSchema#double'));
    // Two writes of the same blank node label: two nodes, in the store and after compaction.
    for (const t of ['one', 'two']) await store.addToGraph(g(1), [quad(s, OT.dataEntry, blankNode('e')), quad(blankNode('e'), DC.title, literal(t))]);
    await store.addToGraph(g(2), [quad(namedNode(g(2)), OT.value, value('0.2500')), quad(namedNode(g(2)), DC.title, literal('ünïcode <x> .'))]);
    await store.addToGraph(g(3), title(3, 'gone'));
    await store.snapshot();
    // After the snapshot: more of graph 1, a remove from graph 2 named by another lexical form
    // of the same double, a triple added twice, graph 3 replaced, graph 4 made and dropped.
    await store.addToGraph(g(1), [quad(s, DC.description, literal('later'))]);
    await store.removeFromGraph(g(2), [quad(namedNode(g(2)), OT.value, value('0.25'))]);
    await store.addToGraph(g(2), title(2, 'twice'));
    await store.addToGraph(g(2), title(2, 'twice'));
    await store.replaceGraph(g(3), title(3, 'new'));
    await store.addToGraph(g(4), title(4, 'dropped'));
    await store.dropGraph(g(4));
    await store.snapshot();
    const live = await canonical(store);
    expect(live).to.have.length(8);
    expect(scan(dir)).to.deep.equal({ snapshots: [2], segments: [2] });
    await store.close();

    store = await TripleStore.open(dir);
    expect(await canonical(store)).to.deep.equal(live);
    const titles = (await store.queryText(`SELECT ?t WHERE { GRAPH <${g(1)}> { <${g(1)}> <${OT.dataEntry.value}> ?e . ?e <${DC.title.value}> ?t } }`)) as Array<Record<string, { value: string }>>;
    expect(titles.map((r) => r.t!.value).sort()).to.deep.equal(['one', 'two']);
    expect((await store.graph(g(3))).map((q) => q.object.value)).to.deep.equal(['new']);
    await store.close();
  });

  for (const readChunk of [16, 100, 4096]) {
    it(`merges a snapshot read ${readChunk} bytes at a time: lines across reads, long lines, a remove after a replace`, async () => {
      const dir = tempDir();
      let store = await TripleStore.open(dir);
      for (let i = 0; i < 6; i++) await store.replaceGraph(g(i), [...title(i, `é${'ü'.repeat(i * 40)}😀 ${i}`), quad(namedNode(g(i)), DC.description, literal(`d${i}`))]);
      await store.snapshot();
      await store.replaceGraph(g(1), [...title(1, 'new'), quad(namedNode(g(1)), DC.description, literal('d1'))]);
      await store.removeFromGraph(g(1), [quad(namedNode(g(1)), DC.description, literal('d1'))]);
      await store.removeFromGraph(g(2), [quad(namedNode(g(2)), DC.description, literal('d2'))]);
      await store.dropGraph(g(3));
      await store.addToGraph(g(4), title(4, 'more'));
      const live = await canonical(store);
      await store.close();
      // Snapshot 2 from snapshot 1 and segment 1, merged here with a small read buffer.
      compact({ plan: currentPlan(dir), target: 2, readChunk });
      store = await TripleStore.open(dir);
      expect(await canonical(store)).to.deep.equal(live);
      expect((await store.graph(g(1))).map((q) => q.object.value)).to.deep.equal(['new']);
      await store.close();
    });
  }

  it('a merged snapshot holds what replay makes of a record the store refuses midway', async () => {
    const dir = tempDir();
    let store = await TripleStore.open(dir);
    await store.replaceGraph(g(1), title(1, 'before'));
    await store.snapshot();
    await store.close();
    // Written past the checks of encodeOps, as a journal from elsewhere could hold it: the
    // second line is no N-Triples, so the load fails (one transaction: its first line is not
    // kept either), and the record's later op is not applied; the next record is.
    const journal = new Journal({ dir, segment: 1, maxRecords: 0, maxBytes: 1 << 30 });
    const nt = (i: number, t: string) => `<${g(i)}> <${DC.title.value}> "${t}" .\n`;
    await journal.append(Buffer.from(JSON.stringify([
      { op: 'add', graph: g(2), nt: nt(2, 'first') + `<${g(2)}> <${DC.title.value}> <not an IRI> .\n` + nt(2, 'third') },
      { op: 'drop', graph: g(1) },
    ])));
    await journal.append(Buffer.from(JSON.stringify([{ op: 'add', graph: g(3), nt: nt(3, 'after') }])));
    await journal.close();
    store = await TripleStore.open(dir);
    const replayed = await canonical(store);
    expect(await store.graph(g(2))).to.deep.equal([]);
    expect((await store.graph(g(1))).map((q) => q.object.value)).to.deep.equal(['before']);
    expect((await store.graph(g(3))).map((q) => q.object.value)).to.deep.equal(['after']);
    await store.close();
    compact({ plan: currentPlan(dir), target: 2 });
    store = await TripleStore.open(dir);
    expect(await canonical(store)).to.deep.equal(replayed);
    await store.close();
  });

  it('snapshot() writes a snapshot on demand; the store reopens from it alone', async () => {
    const dir = tempDir();
    let store = await TripleStore.open(dir);
    for (let i = 0; i < 5; i++) await store.replaceGraph(g(i), title(i, `s${i}`));
    await store.snapshot();
    expect(scan(dir)).to.deep.equal({ snapshots: [1], segments: [1] });
    await store.close();
    store = await TripleStore.open(dir);
    expect(await store.size()).to.equal(5);
    await store.close();
  });

  it('after a crash between rotation and snapshot, start-up replays every segment and compacts them', async () => {
    const dir = tempDir();
    let store = await TripleStore.open(dir, { snapshotEvery: 0 });
    for (let i = 0; i < 3; i++) await store.replaceGraph(g(i), title(i, `s${i}`));
    await store.close();
    // A closed segment 0, a segment 1 begun, and a half-written snapshot: the crash.
    const next = new Journal({ dir, segment: 1, maxRecords: 0, maxBytes: 1 << 30 });
    await next.append(Buffer.from(JSON.stringify(encodeOps([{ op: 'replace', graph: g(9), quads: title(9, 'tail') }]))));
    await next.close();
    writeFileSync(path.join(dir, 'snapshot.tmp'), '<http://half> <http://written');
    store = await TripleStore.open(dir);
    expect(await store.size()).to.equal(4);
    await store.snapshotIdle();
    expect(scan(dir)).to.deep.equal({ snapshots: [1], segments: [1] });
    expect(existsSync(path.join(dir, 'snapshot.tmp'))).to.equal(false);
    await store.close();
    store = await TripleStore.open(dir);
    expect((await store.graph(g(9))).map((q) => q.object.value)).to.deep.equal(['tail']);
    expect(await store.size()).to.equal(4);
    await store.close();
  });

  it('refuses to start when the snapshot or a segment it needs is missing', async () => {
    const dir = tempDir();
    let store = await TripleStore.open(dir);
    for (let i = 0; i < 3; i++) await store.replaceGraph(g(i), title(i, `s${i}`));
    await store.snapshot();
    await store.replaceGraph(g(5), title(5, 'tail'));
    await store.close();
    renameSync(path.join(dir, 'snapshot.1.nq'), path.join(dir, 'elsewhere.nq'));
    let error: Error | undefined;
    await TripleStore.open(dir).catch((e: Error) => { error = e; });
    expect(error?.message).to.match(/snapshot\.1\.nq is missing/);
    renameSync(path.join(dir, 'elsewhere.nq'), path.join(dir, 'snapshot.1.nq'));
    store = await TripleStore.open(dir);
    expect(await store.size()).to.equal(4);
    await store.close();
  });

  it('refuses to remove a blank node (it could not be found again on replay)', async () => {
    const store = await TripleStore.open(tempDir());
    let error: Error | undefined;
    await store.removeFromGraph(g(1), [quad(blankNode('x'), DC.title, literal('x'))]).catch((e: Error) => { error = e; });
    expect(error?.message).to.match(/blank nodes/);
    await store.close();
  });
});
