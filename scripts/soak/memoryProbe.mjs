// Preloaded into the service by the soak's steady phase (NODE_OPTIONS=--import), so it runs
// in the main thread and in every worker thread: once a second, each thread's memory as Node
// counts it for that thread (V8 heap, and "external": WASM memories such as Oxigraph's and
// RDKit's, and buffers) goes to SOAK_MEMORY_FILE as a JSON line, so the report can tell which
// thread's part of RSS grows. Nothing is written without that variable.
/* global WebAssembly -- a Node global the default lint environment does not list */
import { appendFileSync } from 'node:fs';
import process from 'node:process';
import { setInterval } from 'node:timers';
import { isMainThread, threadId, workerData } from 'node:worker_threads';

/** What a worker thread is, from what it was started with (src/store/embedded/replica.ts, compactor.ts, forestThreads.ts; else a Piscina pool: the job pool or the request parser, chem/parsePool.ts). */
function kindOf(data) {
  if (data && typeof data === 'object') {
    if ('segments' in data && 'dir' in data) return 'replica';
    if ('target' in data && 'plan' in data) return 'compactor';
    if ('forestThread' in data) return 'forest';
  }
  return 'pool';
}

/**
 * The service's main thread, or the main thread of a process it forked: the substructure
 * matchers (src/search/matcherPool.ts) inherit NODE_OPTIONS and so this probe, and only they
 * have an IPC channel to a parent.
 */
function mainKind() {
  return typeof process.send === 'function' ? 'matcher' : 'main';
}

/**
 * The WASM memories of this thread, by the package that instantiated them (oxigraph, rdkit, indigo, resvg, tsx, llhttp):
 * "external" sums them with every buffer, and only their own sizes tell which one grows.
 * Both packages instantiate through the WebAssembly namespace (Oxigraph synchronously,
 * RDKit's Emscripten glue asynchronously), so the probe, loaded first, wraps both calls.
 */
const memories = [];

function owner() {
  const stack = new Error().stack ?? '';
  if (stack.includes('oxigraph')) return 'oxigraph';
  if (stack.includes('rdkit')) return 'rdkit';
  if (stack.includes('indigo')) return 'indigo';
  if (stack.includes('resvg')) return 'resvg';
  // tsx's module lexers: their memories grow to the largest source they scanned (Indigo's).
  if (stack.includes('/tsx/')) return 'tsx';
  if (stack.includes('llhttp')) return 'llhttp';
  return 'other';
}

function remember(instance, name) {
  for (const value of Object.values(instance.exports)) {
    if (value instanceof WebAssembly.Memory) memories.push({ name, memory: value });
  }
}

function wrapWebAssembly() {
  const Instance = WebAssembly.Instance;
  WebAssembly.Instance = new Proxy(Instance, {
    construct(target, args, newTarget) {
      const instance = Reflect.construct(target, args, newTarget);
      remember(instance, owner());
      return instance;
    },
  });
  const instantiate = WebAssembly.instantiate;
  WebAssembly.instantiate = function (source, imports) {
    const name = owner();
    return instantiate.call(WebAssembly, source, imports).then((result) => {
      remember(result instanceof Instance ? result : result.instance, name);
      return result;
    });
  };
}

function wasmSizes() {
  const sizes = {};
  for (const { name, memory } of memories) sizes[name] = (sizes[name] ?? 0) + memory.buffer.byteLength;
  return sizes;
}

const file = process.env.SOAK_MEMORY_FILE;
if (file) {
  wrapWebAssembly();
  const kind = isMainThread ? mainKind() : kindOf(workerData);
  setInterval(() => {
    const m = process.memoryUsage();
    // Seconds since the epoch: the reader (steady.ts) times every thread from the start of the load.
    appendFileSync(file, JSON.stringify({ at: Date.now() / 1000, thread: threadId, kind, rss: m.rss, heapUsed: m.heapUsed, heapTotal: m.heapTotal, external: m.external, arrayBuffers: m.arrayBuffers, wasm: wasmSizes() }) + '\n');
  }, 1000).unref();
}
