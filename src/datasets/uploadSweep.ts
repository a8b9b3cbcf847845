// Saved upload bodies (DATA_DIR/uploads) belong to upload tasks that are still Queued or
// Running; the job removes its file when it ends, and a cancel removes it (the job kind's
// discard: a cancelled task is final, SPEC §2.4, and never runs again). A file can outlive
// its task when the process is killed between saving the body and recording the task, or
// between a cancel and its removal: at start-up those files are removed, so a crash leaves
// no disk space taken for good. A remote store holds the bodies as graphs, which every API
// process shares: those are swept by age (sweepGraphs).
import { readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.ts';
import type { Store } from '../store/api.ts';
import { readTask, unfinishedTasks } from '../tasks/tasks.ts';
import { graphOf, sharedFilesUnder } from '../tasks/sharedFiles.ts';

/**
 * How old a body in a remote store must be before the sweep may take it for an orphan.
 * Another API process may be between saving a body and recording its task, or still
 * writing a large body's parts (seconds): an hour is far beyond either.
 */
export const STORE_BODY_AGE_MS = 3_600_000;

/**
 * Where an upload's body is saved, relative to DATA_DIR: its name ends with the time it was
 * saved, which is how the sweep of a remote store tells an old body (savedAt).
 */
export function uploadBodyFile(dataset: string, kind: string, now = Date.now()): string {
  return `uploads/${dataset.slice(dataset.lastIndexOf('/') + 1)}-${now}.${kind}`;
}

/** When the body `rel` (named by uploadBodyFile) was saved; undefined for another name. */
function savedAt(rel: string): number | undefined {
  const time = /-(\d{13})\.[^./]+$/.exec(rel)?.[1];
  return time === undefined ? undefined : Number(time);
}

/** Files of DATA_DIR/uploads that an unfinished task of `kind` still needs. */
async function filesInUse(store: Store, dataDir: string, kind: string): Promise<Set<string>> {
  const used = new Set<string>();
  for (const uri of await unfinishedTasks(store)) {
    const t = (await readTask(store, uri))?.record;
    if (t?.kind !== kind) continue;
    try {
      const file = (JSON.parse(t.params) as { file?: unknown }).file;
      // Relative to DATA_DIR (absolute in tasks recorded before files were shared).
      if (typeof file === 'string') used.add(path.resolve(dataDir, file));
    } catch {
      // Unreadable parameters fail that task when it runs; it needs no file.
    }
  }
  return used;
}

type SweepDeps = { store: Store; config: Pick<Config, 'dataDir'> };

/**
 * Removes the saved bodies no unfinished task of `kind` refers to, and returns them: the files
 * of DATA_DIR/uploads (by name) and, in the remote mode, the body graphs saved over
 * STORE_BODY_AGE_MS before `now` (by path). Runs at start, before requests are served.
 */
export async function sweepUploads(deps: SweepDeps, kind: string, now = Date.now()): Promise<string[]> {
  // The unfinished tasks are read once, and only when there is a body to weigh.
  let used: Promise<Set<string>> | undefined;
  const inUse = () => (used ??= filesInUse(deps.store, deps.config.dataDir, kind));
  return [...await sweepFiles(deps.config.dataDir, inUse), ...await sweepGraphs(deps, inUse, now)];
}

type InUse = () => Promise<ReadonlySet<string>>;

async function sweepFiles(dataDir: string, inUse: InUse): Promise<string[]> {
  const dir = path.join(dataDir, 'uploads');
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  if (names.length === 0) return [];
  const used = await inUse();
  const removed = names.filter((n) => !used.has(path.join(dir, n)));
  for (const n of removed) rmSync(path.join(dir, n), { force: true, recursive: true });
  return removed;
}

/**
 * The body graphs of a remote store (tasks/sharedFiles.ts) that no unfinished task needs and
 * that are old enough (savedAt). A kill while a body is saved, or between a cancel and its
 * removal, leaves such a graph.
 */
async function sweepGraphs(deps: SweepDeps, inUse: InUse, now: number): Promise<string[]> {
  if (!deps.store.capabilities.filesInStore) return [];
  const removed: string[] = [];
  for (const rel of await sharedFilesUnder(deps, 'uploads')) {
    const saved = savedAt(rel);
    if (saved === undefined || now - saved < STORE_BODY_AGE_MS || (await inUse()).has(path.resolve(deps.config.dataDir, rel))) continue;
    await deps.store.dropGraph(graphOf(rel));
    removed.push(rel);
  }
  return removed;
}
