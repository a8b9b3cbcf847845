// Files of a store directory. journal.N.log are the journal segments in order;
// snapshot.N.nq holds the state after every segment below N (so replay starts at segment
// N). snapshot.tmp is a snapshot being written: it only counts once renamed;
// snapshot.ops.tmp is scratch space of the compaction writing it.
import { readdirSync } from 'node:fs';
import path from 'node:path';

export const segmentFile = (dir: string, n: number): string => path.join(dir, `journal.${n}.log`);
export const snapshotFile = (dir: string, n: number): string => path.join(dir, `snapshot.${n}.nq`);
export const snapshotTemp = (dir: string): string => path.join(dir, 'snapshot.tmp');
/** Scratch file of a compaction: the segments' writes, in Oxigraph's form (compactWorker.ts). */
export const snapshotOpsTemp = (dir: string): string => path.join(dir, 'snapshot.ops.tmp');

export interface Layout {
  /** Snapshot indices, ascending. */
  snapshots: number[];
  /** Journal segment indices, ascending. */
  segments: number[];
}

export function scan(dir: string): Layout {
  const snapshots: number[] = [];
  const segments: number[] = [];
  for (const name of readdirSync(dir)) {
    const snap = /^snapshot\.(\d+)\.nq$/.exec(name);
    if (snap) snapshots.push(Number(snap[1]));
    const seg = /^journal\.(\d+)\.log$/.exec(name);
    if (seg) segments.push(Number(seg[1]));
  }
  const asc = (a: number, b: number) => a - b;
  return { snapshots: snapshots.sort(asc), segments: segments.sort(asc) };
}

/** What a reader loads: the snapshot (if any) and the segments after it, in order. */
export interface ReplayPlan {
  dir: string;
  snapshot: number | null;
  segments: number[];
  /** Read the last segment only up to this many bytes (what was durable and applied). */
  lastLength?: number;
}

/** The plan for the current files: the latest snapshot plus every later segment. */
export function currentPlan(dir: string): ReplayPlan {
  const { snapshots, segments } = scan(dir);
  const snapshot = snapshots.at(-1) ?? null;
  const later = segments.filter((s) => s >= (snapshot ?? 0));
  for (let i = 1; i < later.length; i++) {
    const expected = later[i - 1]! + 1;
    if (later[i] !== expected) throw new Error(`journal segment ${expected} is missing in ${dir}`);
  }
  if (snapshot !== null && later.length > 0 && later[0] !== snapshot) throw new Error(`journal segment ${snapshot} is missing in ${dir}`);
  // Segments that start past 0 with no snapshot: the snapshot covering the rest is gone.
  if (snapshot === null && later.length > 0 && later[0] !== 0) throw new Error(`snapshot.${later[0]}.nq is missing in ${dir}`);
  return { dir, snapshot, segments: later };
}

/** Files made obsolete by snapshot `latest`: older snapshots and the segments it covers. */
export function obsolete(dir: string, latest: number): string[] {
  const { snapshots, segments } = scan(dir);
  return [
    ...snapshots.filter((s) => s < latest).map((s) => snapshotFile(dir, s)),
    ...segments.filter((s) => s < latest).map((s) => segmentFile(dir, s)),
  ];
}
