// Worker thread: builds snapshot.N.nq from the previous snapshot and the closed segments
// below N, so the event loop serving the API never pays for it. Written to snapshot.tmp,
// fsynced, renamed atomically, directory fsynced: a crash at any point leaves either the
// old snapshot or the new one, never half of one. The merge itself is in snapshotMerge.ts.
import { parentPort, workerData } from 'node:worker_threads';
import { compact, type CompactJob } from './snapshotMerge.ts';
import { runInBackground } from '../../tasks/threadPriority.ts';

export type { CompactJob } from './snapshotMerge.ts';

// A snapshot is never awaited by a client: it yields the CPU to the thread serving requests.
runInBackground();
try {
  compact(workerData as CompactJob);
  parentPort!.postMessage({ ok: true });
} catch (e) {
  parentPort!.postMessage({ ok: false, message: (e as Error).message });
}
