// Reading a resource graph: plain JS terms, cached until a write touches the graph.
import { expect } from 'chai';
import { DataFactory } from 'n3';
import { tempDir } from '../../helpers/app.ts';
import { TripleStore } from '../../../src/store/embedded/store.ts';
import { GraphCache } from '../../../src/store/embedded/graphCache.ts';
import { DC, OT } from '../../../src/rdf/vocab.ts';

const { quad, namedNode, literal, blankNode } = DataFactory;
const G = 'http://example.org/r/1';
const titles = async (store: TripleStore) => (await store.graph(G)).filter((q) => q.predicate.equals(DC.title)).map((q) => q.object.value).sort();

describe('store graph reads', () => {
  let store: TripleStore;
  beforeEach(async () => { store = await TripleStore.open(tempDir()); });
  afterEach(async () => { await store.close(); });

  it('every kind of write is seen by the next read', async () => {
    const tricky = 'a "quoted"\nline \\ é 𝔘';
    await store.replaceGraph(G, [quad(namedNode(G), DC.title, literal(tricky, 'en'))]);
    const first = await store.graph(G);
    expect(first).to.have.length(1);
    expect(first[0]!.object.value).to.equal(tricky);
    expect((first[0]!.object as { language: string }).language).to.equal('en');
    expect(first[0]!.graph.value).to.equal(G);
    await store.addToGraph(G, [quad(namedNode(G), DC.title, literal('b'))]);
    expect(await titles(store)).to.deep.equal(['b', tricky].sort());
    await store.removeFromGraph(G, [quad(namedNode(G), DC.title, literal('b'))]);
    expect(await titles(store)).to.deep.equal([tricky]);
    await store.replaceGraph(G, [quad(namedNode(G), DC.title, literal('c'))]);
    expect(await titles(store)).to.deep.equal(['c']);
    await store.commit([{ op: 'drop', graph: G }]);
    expect(await store.graph(G)).to.deep.equal([]);
  });

  it('a caller changing the returned array does not change the next read', async () => {
    await store.replaceGraph(G, [quad(namedNode(G), DC.title, literal('a'))]);
    (await store.graph(G)).pop();
    expect(await store.graph(G)).to.have.length(1);
  });

  it('a blank node keeps its label from one read to the next', async () => {
    const e = blankNode('e');
    await store.replaceGraph(G, [quad(namedNode(G), OT.dataEntry, e), quad(e, DC.title, literal('x'))]);
    const entry = (await store.graph(G)).find((q) => q.predicate.equals(OT.dataEntry))!.object;
    expect(entry.termType).to.equal('BlankNode');
    expect((await store.graph(G)).find((q) => q.predicate.equals(DC.title))!.subject.equals(entry)).to.equal(true);
    expect(await store.match(entry, DC.title, null, G)).to.have.length(1);
  });
});

describe('graph cache', () => {
  const q = (n: number) => Array.from({ length: n }, (_, i) => quad(namedNode(`http://x/${i}`), DC.title, literal('v')));

  it('evicts the least recently used graphs past its triple budget', () => {
    const cache = new GraphCache(80);
    cache.set('a', q(10));
    cache.set('b', q(10));
    cache.get('a');
    for (let i = 0; i < 7; i++) cache.set(`c${i}`, q(10));
    expect(cache.get('a'), 'recently read').to.have.length(10);
    expect(cache.get('b'), 'least recently used').to.equal(undefined);
  });

  it('keeps no graph larger than an eighth of its budget', () => {
    const cache = new GraphCache(80);
    cache.set('big', q(11));
    expect(cache.get('big')).to.equal(undefined);
  });
});

describe('store hasGraph', () => {
  it('is true while the graph holds a triple, false before and after', async () => {
    const store = await TripleStore.open(tempDir());
    expect(await store.hasGraph(G)).to.equal(false);
    await store.replaceGraph(G, [quad(namedNode(G), DC.title, literal('a'))]);
    expect(await store.hasGraph(G)).to.equal(true);
    await store.graph(G);
    expect(await store.hasGraph(G)).to.equal(true);
    await store.dropGraph(G);
    expect(await store.hasGraph(G)).to.equal(false);
    await store.close();
  });
});
