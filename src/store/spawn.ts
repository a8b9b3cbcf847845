// Starts a TypeScript module in a worker thread. Workers do not inherit the tsx loader
// that the main thread was started with (node 20), so a tiny bootstrap registers it first.
import { Worker } from 'node:worker_threads';

const TSX_API = import.meta.resolve('tsx/esm/api');

export function spawnTsWorker(module: URL, workerData: unknown): Worker {
  const boot = `import(${JSON.stringify(TSX_API)}).then((m) => { m.register(); return import(${JSON.stringify(module.href)}); })`;
  return new Worker(boot, { eval: true, workerData });
}

/** Resolves with the worker's first message, rejects if it fails or exits before. */
export function firstMessage<T>(worker: Worker): Promise<T> {
  return new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`worker exited with code ${code}`)));
  });
}
