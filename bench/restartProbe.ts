// Child process of bench/store.ts: opens a store directory cold and reports how long that
// took and the memory it holds, so the figure is not polluted by the benchmark's own store.
import { TripleStore } from '../src/store/embedded/store.ts';

const started = performance.now();
const cpu = process.cpuUsage();
const dir = process.argv[2];
if (dir === undefined) throw new Error('usage: restartProbe.ts <store directory>');
const store = await TripleStore.open(dir);
const ms = performance.now() - started;
// Process-wide: the store's thread replays the files.
const cpuMs = process.cpuUsage(cpu).user / 1000;
const mem = process.memoryUsage();
// WASM/buffers: the store thread's Oxigraph memory and this thread's buffers.
console.log(JSON.stringify({ ms, cpuMs, size: await store.size(), rss: mem.rss, heapUsed: mem.heapUsed, external: (await store.memory()) + mem.external + mem.arrayBuffers }));
await store.close();
