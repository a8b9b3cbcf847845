// Functions run in worker threads by the test jobs (test/helpers/testJobs.ts).
import type { WorkerTools } from '../../src/tasks/worker.ts';

/** Busy-loops for `ms` (a CPU-heavy job), reporting progress every tenth of it. */
export function spin(input: { ms: number }, tools: WorkerTools): number {
  const start = Date.now();
  let step = 0;
  let x = 0;
  while (Date.now() - start < input.ms) {
    x += Math.sqrt(x + 1);
    const done = Math.floor(((Date.now() - start) / input.ms) * 10);
    if (done > step) tools.progress((step = done) * 10);
  }
  return x;
}

export function double(input: { n: number }): number {
  return input.n * 2;
}

export function throws(input: { message: string }): never {
  throw new Error(input.message);
}
