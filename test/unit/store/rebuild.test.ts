// Oxigraph's in-memory storage keeps every quad it ever held, so the store rebuilds itself
// beside the live one once enough has been written (src/store/embedded/store.ts, REBUILD_MIN), and the
// SPARQL replica lets its worker go when idle. Checked here: writes made while a rebuild runs
// are all in the store that takes over, reads never see a partial store, the rebuilt store
// restarts from its files as before, the replica answers from a fresh worker, and (in child
// processes, so that one run's WASM memory does not serve the other's) the memory Oxigraph
// holds stays bounded under churn where without rebuilds it keeps growing.
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { DataFactory } from 'n3';
import { tempDir } from '../../helpers/app.ts';
import { TripleStore } from '../../../src/store/embedded/store.ts';
import { DC } from '../../../src/rdf/vocab.ts';
import { parseSparqlQuery } from '../../../src/store/sparqlQuery.ts';

const { quad, namedNode, literal } = DataFactory;
const run = promisify(execFile);
const HERE = path.dirname(fileURLToPath(import.meta.url));

const graphOf = (i: number) => `http://example.org/r/${i}`;
const titlesOf = (g: string, version: number, n: number) => Array.from({ length: n }, (_, k) => quad(namedNode(`${g}#t${k}`), DC.title, literal(`v${version} ${k}`)));
const sortedValues = async (store: TripleStore, g: string) => (await store.graph(g)).map((q) => `${q.subject.value} ${q.object.value}`).sort();

describe('store rebuilds (garbage Oxigraph keeps)', function () {
  this.timeout(120_000);

  it('keeps every write made while it runs, and reads stay whole throughout', async () => {
    const dir = tempDir();
    const store = await TripleStore.open(dir, { rebuildMin: 2_000 });
    const expected = new Map<string, string[]>();
    // 40 graphs rewritten 30 times each, 50 quads a time: 60,000 quads written, many rebuilds.
    for (let version = 0; version < 30; version++) {
      await Promise.all(Array.from({ length: 40 }, async (_, i) => {
        const g = graphOf(i);
        const quads = titlesOf(g, version, 50);
        await store.replaceGraph(g, quads);
        expected.set(g, quads.map((q) => `${q.subject.value} ${q.object.value}`).sort());
      }));
      // A read between writes sees each graph whole: 50 titles of one version.
      const seen = await store.graph(graphOf(version % 40));
      expect(seen).to.have.length(50);
      expect(new Set(seen.map((q) => q.object.value.split(' ')[0])).size).to.equal(1);
    }
    await store.rebuildIdle();
    expect(store.rebuilds).to.be.greaterThan(2);
    for (const [g, values] of expected) expect(await sortedValues(store, g), g).to.deep.equal(values);
    expect(await store.size()).to.equal(40 * 50);
    await store.close();
    // The files are the truth: a restart reads the same store.
    const again = await TripleStore.open(dir);
    for (const [g, values] of expected) expect(await sortedValues(again, g), g).to.deep.equal(values);
    await again.close();
  });

  it('writes that only add (an upload) leave no garbage and cause no rebuild', async () => {
    const store = await TripleStore.open(tempDir(), { rebuildMin: 2_000 });
    for (let i = 0; i < 40; i++) await store.replaceGraph(graphOf(i), titlesOf(graphOf(i), 0, 500));
    for (let i = 0; i < 40; i++) await store.addToGraph(graphOf(0), titlesOf(`${graphOf(0)}/more${i}`, 0, 500));
    await store.rebuildIdle();
    expect(store.rebuilds).to.equal(0);
    expect(await store.size()).to.equal(40 * 500 + 40 * 500);
    await store.close();
  });

  it('the SPARQL replica answers from a fresh worker once the old one filled with garbage', async () => {
    const store = await TripleStore.open(tempDir(), { rebuildMin: 1_000_000 });
    const count = async () => {
      const body = await store.sparql(parseSparqlQuery('SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } }', 'http://example.org/'), { resultsFormat: 'application/sparql-results+json' });
      return Number((JSON.parse(body) as { results: { bindings: Array<{ n: { value: string } }> } }).results.bindings[0]!.n.value);
    };
    await store.replaceGraph(graphOf(0), titlesOf(graphOf(0), 0, 10));
    expect(await count()).to.equal(10);
    // 250,000 quads through the replica (its worker recycles past 200,000 when idle).
    for (let version = 1; version <= 50; version++) await store.replaceGraph(graphOf(1), titlesOf(graphOf(1), version, 5_000));
    const replica = (store as unknown as { replica: { recycled: number } }).replica;
    expect(replica.recycled).to.be.greaterThan(0);
    expect(await count()).to.equal(5_010);
    await store.close();
  });

  it('bounds the memory Oxigraph holds under churn, where without rebuilds it keeps growing', async () => {
    const probe = path.join(HERE, 'rebuildProbe.ts');
    const grow = async (rebuildMin: number) => {
      const { stdout } = await run(process.execPath, ['--import', 'tsx', probe, tempDir(), String(rebuildMin)], { maxBuffer: 1 << 20 });
      return JSON.parse(stdout) as { growthMiB: number; rebuilds: number };
    };
    const without = await grow(Number.MAX_SAFE_INTEGER);
    const withRebuilds = await grow(20_000);
    expect(without.rebuilds).to.equal(0);
    expect(withRebuilds.rebuilds).to.be.greaterThan(0);
    // Measured here: about 220 MiB without (transactions leave more behind than the bulk
    // loader did, about 90 MiB), under 1 MiB with.
    expect(without.growthMiB).to.be.greaterThan(40);
    expect(withRebuilds.growthMiB).to.be.lessThan(without.growthMiB / 5);
  });
});
