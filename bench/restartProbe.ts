// Child process of bench/store.ts: opens a store directory cold and reports how long that
// took and the memory it holds, so the figure is not polluted by the benchmark's own store.
import { TripleStore } from '../src/store/embedded/store.ts';

const started = performance.now();
const cpu = process.cpuUsage();
const dir = process.argv[2];
if (dir === undefined) throw new Error('usage: restartProbe.ts <store directory>');
const store = await TripleStore.open(dir);
const ms = performance.now() - started;
const cpuMs = process.cpuUsage(cpu).user / 1000;
const mem = process.memoryUsage();
console.log(JSON.stringify({ ms, cpuMs, size: store.size, rss: mem.rss, heapUsed: mem.heapUsed, external: mem.external + mem.arrayBuffers }));
await store.close();
