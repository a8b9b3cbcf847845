// Preloaded into the service by the soak's steady phase (NODE_OPTIONS=--import): every
// second, the main thread's memory as Node counts it (V8 heap, and "external": WASM memories
// such as Oxigraph's and RDKit's, and buffers) goes to SOAK_MEMORY_FILE as a JSON line, so
// the report can tell which part of RSS grows. Nothing is written without that variable.
import { appendFileSync } from 'node:fs';
import process from 'node:process';
import { setInterval } from 'node:timers';
import { isMainThread } from 'node:worker_threads';

const file = process.env.SOAK_MEMORY_FILE;
if (file && isMainThread) {
  const started = Date.now();
  setInterval(() => {
    const m = process.memoryUsage();
    appendFileSync(file, JSON.stringify({ t: (Date.now() - started) / 1000, rss: m.rss, heapUsed: m.heapUsed, heapTotal: m.heapTotal, external: m.external }) + '\n');
  }, 1000).unref();
}
