// Saved upload bodies (DATA_DIR/uploads) belong to upload tasks that are still Queued or
// Running; the job removes its file when it ends, and a cancel removes it (the job kind's
// discard: a cancelled task is final, SPEC §2.4, and never runs again). A file can outlive
// its task when the process is killed between saving the body and recording the task, or
// between a cancel and its removal: at start-up those files are removed, so a crash leaves
// no disk space taken for good.
import { readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { Store } from '../store/api.ts';
import { readTask, unfinishedTasks } from '../tasks/tasks.ts';

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

/** Removes the saved bodies no unfinished upload task refers to; returns their names. Runs at start, before requests are served. */
export async function sweepUploads(store: Store, dataDir: string, kind: string): Promise<string[]> {
  const dir = path.join(dataDir, 'uploads');
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const used = await filesInUse(store, dataDir, kind);
  const removed = names.filter((n) => !used.has(path.join(dir, n)));
  for (const n of removed) rmSync(path.join(dir, n), { force: true, recursive: true });
  return removed;
}
