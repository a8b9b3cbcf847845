// The pieces of the representation cache: graph versions, Accept-Encoding (RFC 9110
// §12.5.3), entity tag and date comparison (RFC 9110 §13.1), and the LRU's bounds.
import { expect } from 'chai';
import { gunzipSync } from 'node:zlib';
import { GraphVersions, versioned, versionsOf, type GraphWrites } from '../../../src/store/versions.ts';
import { chooseCoding } from '../../../src/http/compress.ts';
import { lastModifiedOf, modifiedSince, noneMatch } from '../../../src/http/conditional.ts';
import { BodyCache, ENTRY_OVERHEAD } from '../../../src/http/cache.ts';

describe('representation cache parts', () => {
  it('a write moves its graph and the graphs above it, not its siblings', () => {
    const v = new GraphVersions();
    v.bump(['http://h/compound/5/conformer/1']);
    const conformer = v.of(['http://h/compound/5/conformer/1']).seq;
    expect(conformer).to.equal(1);
    expect(v.of(['http://h/compound/5']).seq).to.equal(1);
    expect(v.of(['http://h/compound/50']).seq).to.equal(0);
    expect(v.of(['http://h/compound/5/conformer/2']).seq).to.equal(0);
    v.bump(['http://h/compound/50']);
    expect(v.of(['http://h/compound/5', 'http://h/compound/50']).seq).to.equal(2);
    expect(v.current).to.equal(2);
  });

  it('the versions remember a bounded number of graphs: past it, everything counts as written once', () => {
    const v = new GraphVersions();
    v.bump(['http://h/model/1']);
    const cached = v.of(['http://h/model/1']).seq;
    // Tasks come and go: 100,001 graphs written once each (plus their parent, http://h/task).
    for (let i = 0; i < 100_000; i++) v.bump([`http://h/task/${i}`]);
    // The bound was passed: model/1, untouched since, is stale all the same, and so is a graph never written.
    expect(v.of(['http://h/model/1']).seq).to.be.greaterThan(cached);
    expect(v.of(['http://h/never']).seq).to.be.greaterThan(0);
    // And the next writes are told apart again.
    const before = v.of(['http://h/model/1']).seq;
    v.bump(['http://h/model/2']);
    expect(v.of(['http://h/model/2']).seq).to.be.greaterThan(before);
    expect(v.of(['http://h/model/1']).seq).to.equal(before);
  });

  it('versioned() records every write method, after it resolved and after it failed', async () => {
    const calls: string[] = [];
    const store: GraphWrites & { other: () => string } = {
      commit: async (ops) => { calls.push(`commit ${ops.map((o) => o.graph).join(' ')}`); },
      replaceGraph: async (g) => { calls.push(`replace ${g}`); },
      addToGraph: async (g) => { calls.push(`add ${g}`); },
      removeFromGraph: async () => { throw new Error('refused'); },
      dropGraph: async (g) => { calls.push(`drop ${g}`); },
      other: () => 'untouched',
    };
    const wrapped = versioned(store);
    const v = versionsOf(wrapped)!;
    await wrapped.commit([{ op: 'drop', graph: 'http://h/a' }, { op: 'drop', graph: 'http://h/b' }]);
    expect(v.of(['http://h/b']).seq).to.equal(1);
    await wrapped.replaceGraph('http://h/c');
    await wrapped.addToGraph('http://h/d');
    await wrapped.dropGraph('http://h/e');
    await wrapped.removeFromGraph('http://h/f').catch(() => undefined);
    expect([v.of(['http://h/c']).seq, v.of(['http://h/d']).seq, v.of(['http://h/e']).seq, v.of(['http://h/f']).seq]).to.deep.equal([2, 3, 4, 5]);
    expect(wrapped.other()).to.equal('untouched');
    expect(calls).to.deep.equal(['commit http://h/a http://h/b', 'replace http://h/c', 'add http://h/d', 'drop http://h/e']);
    expect(versionsOf(store)).to.equal(undefined);
  });

  it('Accept-Encoding: highest weight wins, br first at equal weight, q=0 refuses', () => {
    expect(chooseCoding(undefined)).to.equal(undefined);
    expect(chooseCoding('gzip, deflate')).to.equal('gzip');
    expect(chooseCoding('gzip, deflate, br')).to.equal('br');
    expect(chooseCoding('br;q=0.4, gzip;q=0.8')).to.equal('gzip');
    expect(chooseCoding('gzip;q=0, br;q=0')).to.equal(undefined);
    expect(chooseCoding('identity')).to.equal(undefined);
    expect(chooseCoding('*')).to.equal('br');
    expect(chooseCoding('*;q=0.5, br;q=0')).to.equal('gzip');
    expect(chooseCoding('x-gzip')).to.equal('gzip');
  });

  it('If-None-Match compares weakly, lists and * match; If-Modified-Since compares whole seconds', () => {
    expect(noneMatch('"a"', '"a"')).to.equal(false);
    expect(noneMatch('W/"a"', '"a"')).to.equal(false);
    expect(noneMatch('"b", "a"', '"a"')).to.equal(false);
    expect(noneMatch('"b"', '"a"')).to.equal(true);
    expect(noneMatch('*', '"a"')).to.equal(false);
    const t = Date.UTC(2026, 0, 2, 3, 4, 5, 600);
    expect(modifiedSince(new Date(Date.UTC(2026, 0, 2, 3, 4, 5)).toUTCString(), t)).to.equal(false);
    expect(modifiedSince(new Date(Date.UTC(2026, 0, 2, 3, 4, 4)).toUTCString(), t)).to.equal(true);
    expect(modifiedSince('yesterday', t)).to.equal(true);
    // Within the second of the change, no Last-Modified: a second change would carry the same date.
    expect(lastModifiedOf(t, t + 300)).to.equal(undefined);
    expect(lastModifiedOf(t, t + 500)).to.equal(t);
  });

  it('the LRU keeps to its byte budget (each entry counted with its overhead), drops the least recently used, and misses on another version', () => {
    const cache = new BodyCache(8 * (ENTRY_OVERHEAD + 10));
    const body = Buffer.alloc(10);
    for (const k of ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']) cache.set(k, 'v1', 0, body, ['g']);
    expect(cache.size).to.equal(8);
    expect(cache.get('a', 'v1')).to.not.equal(undefined);
    cache.set('i', 'v1', 0, body, ['g']);
    expect(cache.size).to.equal(8);
    expect(cache.get('b', 'v1')).to.equal(undefined);
    expect(cache.get('a', 'v1')).to.not.equal(undefined);
    expect(cache.get('a', 'v2')).to.equal(undefined);
    expect(cache.get('a', 'v1')).to.equal(undefined);
    // More than an eighth of the budget is served but not kept.
    cache.set('big', 'v1', 0, Buffer.alloc(ENTRY_OVERHEAD + 11), ['g']);
    expect(cache.get('big', 'v1')).to.equal(undefined);
  });

  it('a write to a graph drops every entry built from it at once, and frees its share of the budget', () => {
    const versions = new GraphVersions();
    const cache = new BodyCache(4 * (ENTRY_OVERHEAD + 10));
    versions.onWrite((graphs) => cache.invalidate(graphs));
    const body = Buffer.alloc(10);
    const tag = 'v0';
    cache.set('http://h/dataset/1\ntext/csv', tag, 0, body, ['http://h/dataset/1']);
    cache.set('http://h/dataset/1\ntext/turtle', tag, 0, body, ['http://h/dataset/1']);
    cache.set('http://h/compound/5\ntext/plain', tag, 0, body, ['http://h/compound/5']);
    cache.set('http://h/task/1\ntext/plain', tag, 0, body, ['http://h/task/1', 'http://h/dataset/1']);
    // The dataset is deleted: nobody will ask for it again, and its entries go now.
    versions.bump(['http://h/dataset/1']);
    expect(cache.size).to.equal(1);
    expect(cache.get('http://h/compound/5\ntext/plain', tag)).to.not.equal(undefined);
    // A write below a resource (a conformer) drops the resource's entries too.
    versions.bump(['http://h/compound/5/conformer/1']);
    expect(cache.size).to.equal(0);
    // The budget freed: four new entries fit without evicting one another.
    for (const k of ['a', 'b', 'c', 'd']) cache.set(k, tag, 0, body, [`http://h/x/${k}`]);
    expect(cache.size).to.equal(4);
    // A write to every graph at once (forgetAll) empties the cache.
    versions.forgetAll();
    expect(cache.size).to.equal(0);
  });

  it('tells listeners each write with the graphs it recorded, parents included, until they unsubscribe', () => {
    const versions = new GraphVersions();
    const heard: Array<readonly string[] | undefined> = [];
    const stop = versions.onWrite((graphs) => heard.push(graphs));
    versions.bump(['http://h/compound/5/conformer/1', 'http://h/task/2']);
    versions.forgetAll();
    stop();
    versions.bump(['http://h/task/3']);
    expect(heard).to.deep.equal([
      ['http://h/compound/5/conformer/1', 'http://h/compound/5/conformer', 'http://h/compound/5', 'http://h/compound', 'http://h/task/2', 'http://h/task'],
      undefined,
    ]);
  });

  it('keeps each cached body, and each coded one, in memory of its own, not in a slice of Node\'s shared slab', async () => {
    const cache = new BodyCache();
    // Small strings and buffers come from Node's shared pool: a slice of an 8 KiB slab.
    const pooled = Buffer.from('CC(=O)Oc1ccccc1C(=O)O');
    expect(pooled.buffer.byteLength).to.be.above(pooled.length);
    for (const [key, body] of [['buffer', pooled], ['string', 'CCO']] as const) {
      const entry = cache.set(key, 'v1', 0, body, ['g']);
      expect(entry.body.toString()).to.equal(body.toString());
      expect(entry.body.buffer.byteLength, key).to.equal(entry.body.length);
    }
    const text = 'a tab-separated line of values\t'.repeat(100);
    const entry = cache.set('coded', 'v1', 0, text, ['g']);
    const gzipped = await cache.coded(entry, 'gzip');
    expect(gunzipSync(gzipped).toString()).to.equal(text);
    expect(gzipped.length).to.be.below(4096);
    expect(gzipped.buffer.byteLength).to.equal(gzipped.length);
    // A buffer that already owns its memory is kept as it is, not copied.
    const own = Buffer.allocUnsafeSlow(16).fill(1);
    expect(cache.set('own', 'v1', 0, own, ['g']).body).to.equal(own);
  });
});
