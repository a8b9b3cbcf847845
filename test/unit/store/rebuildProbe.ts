// Child process of rebuild.test.ts: churns one store (a 1,000-quad graph replaced with new
// values, 600 times by default) and prints how much the store's Oxigraph memory (its thread's
// WASM memory) grew, with store rebuilds past argv[3] quads written.
import { DataFactory } from 'n3';
import { TripleStore } from '../../../src/store/embedded/store.ts';
import { DC } from '../../../src/rdf/vocab.ts';

const { quad, namedNode, literal } = DataFactory;
const [dir, min, rounds] = process.argv.slice(2);
const store = await TripleStore.open(dir!, { rebuildMin: Number(min) });
const G = 'http://example.org/r/churn';
const version = (v: number) => Array.from({ length: 1_000 }, (_, k) => quad(namedNode(`${G}#t${k}`), DC.title, literal(`version ${v} of title ${k}, long enough to weigh something`)));
for (let v = 0; v < 20; v++) await store.replaceGraph(G, version(v));
await store.rebuildIdle();
const before = await store.memory();
for (let v = 20; v < 20 + Number(rounds ?? 600); v++) await store.replaceGraph(G, version(v));
await store.rebuildIdle();
const after = await store.memory();
process.stdout.write(JSON.stringify({ growthMiB: (after - before) / 1048576, rebuilds: store.rebuilds }));
await store.close();
