// Trees of a forest grown in parallel worker threads (DESIGN: heavy computation off the
// event loop, every core used). The matrix travels as typed arrays over SharedArrayBuffers
// (bit-packed fingerprints are 1/64 the size of doubles), so no thread copies it; each
// thread grows every n-th tree from that tree's own seed and posts it back, which is
// when progress moves. The forest equals fitForest's for the same seed.
import { availableParallelism } from 'node:os';
import { isMainThread, parentPort, workerData, type Worker } from 'node:worker_threads';
import { startThread } from '../../threads/threadModule.ts';
import { runInBackground } from '../../tasks/threadPriority.ts';
import { fitForest, growForestTree, type Forest, type ForestOptions } from './forest.ts';
import { matrixOf, type Matrix, type Tree } from './tree.ts';

/** Fewest rows x trees worth starting threads for (a thread costs ~0.3 s to start). */
const MIN_WORK = 100_000;

interface Job { forestThread: true; matrix: Matrix; y: Float64Array; opt: ForestOptions; first: number; step: number }

function shared<T extends Int32Array | Float64Array | Uint8Array>(a: T): T {
  const buffer = new SharedArrayBuffer(a.byteLength);
  const copy = new (a.constructor as new (b: SharedArrayBuffer) => T)(buffer);
  copy.set(a as never);
  return copy;
}

function sharedMatrix(m: Matrix): Matrix {
  return {
    ...m,
    data: shared(m.data),
    binary: shared(m.binary),
    packed: m.packed && shared(m.packed),
    onesStart: m.onesStart && shared(m.onesStart),
    onesIdx: m.onesIdx && shared(m.onesIdx),
  };
}

/**
 * fitForest over `threads` worker threads (default: every core); in this thread when the
 * job is small or one thread is asked for.
 */
export async function fitForestThreads(X: readonly (readonly number[])[], y: readonly number[], opt: ForestOptions, progress?: (fraction: number) => void, threads = availableParallelism()): Promise<Forest> {
  const n = Math.min(threads, opt.trees);
  if (n <= 1 || X.length * opt.trees < MIN_WORK) return fitForest(X, y, opt, progress);
  const matrix = sharedMatrix(matrixOf(X, X[0]?.length ?? 0));
  const yy = shared(Float64Array.from(y));
  const trees = new Array<Tree>(opt.trees);
  let done = 0;
  const workers: Worker[] = [];
  try {
    await Promise.all(Array.from({ length: n }, (_, first) => new Promise<void>((resolve, reject) => {
      const job: Job = { forestThread: true, matrix, y: yy, opt, first, step: n };
      const w = startThread(new URL(import.meta.url), { workerData: job });
      workers.push(w);
      let expected = Math.ceil((opt.trees - first) / n);
      w.on('message', (msg: { t: number; tree: Tree }) => {
        trees[msg.t] = msg.tree;
        progress?.(++done / opt.trees);
        if (--expected === 0) resolve();
      });
      w.once('error', reject);
      w.once('exit', (code) => { if (expected > 0) reject(new Error(`a forest thread stopped (exit code ${code}) with ${expected} trees to grow`)); });
    })));
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
  return { classes: opt.classes, trees };
}

// Thread entry: grow trees first, first + step, ... and post each as it is done.
if (!isMainThread && parentPort && (workerData as Partial<Job> | undefined)?.forestThread) {
  const { matrix, y, opt, first, step } = workerData as Job;
  runInBackground();
  for (let t = first; t < opt.trees; t += step) {
    parentPort.postMessage({ t, tree: growForestTree(matrix, y, opt, t) });
  }
}
