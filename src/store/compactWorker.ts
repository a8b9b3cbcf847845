// Worker thread: builds snapshot.N.nq from the previous snapshot and the closed segments
// below N in its own Oxigraph instance, so the event loop serving the API never pays for
// it. Written to snapshot.tmp, fsynced, renamed atomically, directory fsynced: a crash at
// any point leaves either the old snapshot or the new one, never half of one.
import { closeSync, fsyncSync, openSync, renameSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import * as ox from 'oxigraph';
import { replay } from './records.ts';
import { snapshotFile, snapshotTemp, type ReplayPlan } from './layout.ts';
import { writeFullySync } from './writeFully.ts';

export interface CompactJob {
  plan: ReplayPlan;
  /** Index of the snapshot to write: the plan covers every segment below it. */
  target: number;
}

function compact({ plan, target }: CompactJob): void {
  const store = new ox.Store();
  replay(store, plan);
  const text = store.dump({ format: 'application/n-quads' });
  const tmp = snapshotTemp(plan.dir);
  const fd = openSync(tmp, 'w');
  try {
    writeFullySync(fd, text);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, snapshotFile(plan.dir, target));
  const dirFd = openSync(plan.dir, 'r');
  try {
    fsyncSync(dirFd);
  } finally {
    closeSync(dirFd);
  }
}

try {
  compact(workerData as CompactJob);
  parentPort!.postMessage({ ok: true });
} catch (e) {
  parentPort!.postMessage({ ok: false, message: (e as Error).message });
}
