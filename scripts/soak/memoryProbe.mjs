// Preloaded into the service by the soak's steady phase (NODE_OPTIONS=--import), so it runs
// in the main thread and in every worker thread: once a second, each thread's memory as Node
// counts it for that thread (V8 heap, and "external": WASM memories such as Oxigraph's and
// RDKit's, and buffers) goes to SOAK_MEMORY_FILE as a JSON line, so the report can tell which
// thread's part of RSS grows. Nothing is written without that variable.
import { appendFileSync } from 'node:fs';
import process from 'node:process';
import { setInterval } from 'node:timers';
import { isMainThread, threadId, workerData } from 'node:worker_threads';

/** What a worker thread is, from what it was started with (src/store/replica.ts, compactor.ts, forestThreads.ts; else the job pool). */
function kindOf(data) {
  if (data && typeof data === 'object') {
    if ('segments' in data && 'dir' in data) return 'replica';
    if ('target' in data && 'plan' in data) return 'compactor';
    if ('forestThread' in data) return 'forest';
  }
  return 'pool';
}

const file = process.env.SOAK_MEMORY_FILE;
if (file) {
  const kind = isMainThread ? 'main' : kindOf(workerData);
  setInterval(() => {
    const m = process.memoryUsage();
    // Seconds since the epoch: the reader (steady.ts) times every thread from the start of the load.
    appendFileSync(file, JSON.stringify({ at: Date.now() / 1000, thread: threadId, kind, rss: m.rss, heapUsed: m.heapUsed, heapTotal: m.heapTotal, external: m.external }) + '\n');
  }, 1000).unref();
}
