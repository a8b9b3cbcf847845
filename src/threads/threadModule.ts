// Every worker thread and helper process the service starts is started here, from either
// form of the code: the built JavaScript in dist/ (`npm start`, plain node) or the TypeScript
// sources under tsx (tests, bench, scripts). Node 20 does not carry the main thread's tsx
// hooks into a thread, so from the sources a thread first loads tsThread.mjs, which registers
// tsx; the built code needs no bootstrap.
import { fork, type ChildProcess, type ForkOptions } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/** True when this code runs as built JavaScript, false from the TypeScript sources. */
export const COMPILED = new URL(import.meta.url).pathname.endsWith('.js');

const TS_THREAD = new URL('./tsThread.mjs', import.meta.url);

/**
 * The module `specifier` (written as in the sources, './x.ts') relative to `base` (the
 * caller's import.meta.url), as the file this code runs from: its .js sibling when compiled.
 */
export function threadModule(specifier: string, base: string | URL): URL {
  const url = new URL(specifier, base);
  if (COMPILED) url.pathname = url.pathname.replace(/\.ts$/, '.js');
  return url;
}

/** Starts `module` (a URL from threadModule or a module's own import.meta.url) in a worker thread. */
export function startThread(module: URL, options: WorkerOptions = {}): Worker {
  if (COMPILED) return new Worker(module, options);
  return new Worker(TS_THREAD, { ...options, argv: [...(options.argv ?? []), module.href] });
}

/** What a Piscina pool is given to run `module`'s default export in each of its threads. */
export function poolEntry(module: URL): { filename: string; argv?: string[] } {
  return COMPILED ? { filename: module.href } : { filename: TS_THREAD.href, argv: [module.href] };
}

/** Starts `module` in a child process of its own, with an IPC channel. */
export function startProcess(module: URL, options: ForkOptions = {}): ChildProcess {
  return fork(fileURLToPath(module), [], { ...options, execArgv: COMPILED ? [] : ['--import', 'tsx'] });
}

/** Resolves with the worker's first message, rejects if it fails or exits before. */
export function firstMessage<T>(worker: Worker): Promise<T> {
  return new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`worker exited with code ${code}`)));
  });
}
