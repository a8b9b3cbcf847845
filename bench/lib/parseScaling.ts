// What the machine's cores give the toolkit itself in this run: the upload's goal counts the
// one-thread parse rate × cores, which holds only where two threads parse twice as fast as
// one. On this shared machine that moves with the hour, so it is measured beside the upload.
// Each thread parses its rows once untimed first (parsePass.ts), as the one-thread baseline does.
import type { Worker } from 'node:worker_threads';
import { startThread } from '../../src/threads/threadModule.ts';
import { medianBy } from './median.ts';

export interface ParseScaling {
  /** Rows a second: one thread alone, and `threads` threads at once (each parsing every row). */
  one: number;
  all: number;
}

const answer = (worker: Worker) => new Promise<number>((resolve, reject) => {
  worker.once('message', resolve);
  worker.once('error', reject);
});

/** One thread's parse rate of `smiles` and `threads` threads' at once, the median of `rounds`. */
export async function parseScaling(smiles: readonly string[], threads: number, rounds: number): Promise<ParseScaling> {
  const workers = Array.from({ length: threads }, () => startThread(new URL('./parseThread.ts', import.meta.url), { workerData: { smiles } }));
  try {
    await Promise.all(workers.map(answer));
    const time = (some: Worker[]) => Promise.all(some.map((w) => {
      const done = answer(w);
      w.postMessage('go');
      return done;
    }));
    const measured: ParseScaling[] = [];
    for (let i = 0; i < rounds; i++) {
      const [alone] = await time(workers.slice(0, 1));
      const together = await time(workers);
      // Threads started together; the last to finish sets the rate.
      measured.push({ one: (smiles.length * 1000) / alone!, all: (threads * smiles.length * 1000) / Math.max(...together) });
    }
    return medianBy(measured, (m) => m.all / m.one);
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}
