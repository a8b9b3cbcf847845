// Structure files under DATA_DIR/structures/<id>/. Files are written
// atomically (temp file, fsync, rename, fsync directory) before the triples that name
// them are committed, and removed only after the triples are gone; start-up removes any
// file no triple names, so a crash in between never shows a half-written compound. With
// a remote store the files are graphs of that store instead (structureGraphs.ts), so that
// every process reads them; a crash between the two writes leaves an unnamed graph there.
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { mkdirPrivate, openPrivate } from '../files/privateFiles.ts';
import type { Config } from '../config.ts';
import type { Deps } from '../deps.ts';
import { readStructureGraph, removeCompoundGraphs, removeStructureGraphs, writeStructureGraphs } from './structureGraphs.ts';

type FileDeps = Pick<Deps, 'config' | 'store'>;

/** True when structure files are kept in the (shared) store rather than under DATA_DIR. */
const inStore = (deps: FileDeps): boolean => deps.store.capabilities.filesInStore;

export const structuresDir = (config: Config): string => path.join(config.dataDir, 'structures');

/** Path (relative to the structures directory) of a new file for compound `id`. */
export function newStructurePath(id: number, kind: string): string {
  return `${id}/${kind}-${randomBytes(4).toString('hex')}.mol`;
}

/** Writes `text` at `rel` atomically and durably. */
export async function writeStructureFile(deps: FileDeps, rel: string, text: string): Promise<void> {
  if (inStore(deps)) return writeStructureGraphs(deps, [{ rel, text }]);
  const { config } = deps;
  const file = path.join(structuresDir(config), rel);
  const dir = path.dirname(file);
  await mkdirPrivate(dir);
  const tmp = `${file}.tmp`;
  const handle = await openPrivate(tmp, 'w');
  try {
    await handle.writeFile(text, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  await fs.rename(tmp, file);
  const dirHandle = await fs.open(dir, 'r');
  try {
    await dirHandle.sync();
  } finally {
    await dirHandle.close();
  }
}

/** Writes many files, a few at a time (each atomically). */
export async function writeStructureFiles(deps: FileDeps, files: ReadonlyArray<{ rel: string; text: string }>): Promise<void> {
  if (inStore(deps)) return writeStructureGraphs(deps, files);
  for (let i = 0; i < files.length; i += 32) {
    await Promise.all(files.slice(i, i + 32).map((f) => writeStructureFile(deps, f.rel, f.text)));
  }
}

export function readStructureFile(deps: FileDeps, rel: string): Promise<string> {
  if (inStore(deps)) return readStructureGraph(deps, rel);
  return fs.readFile(path.join(structuresDir(deps.config), rel), 'utf8');
}

/** Removes files (best effort: a leftover is removed at the next start). */
export async function removeStructureFiles(deps: FileDeps, rels: readonly string[]): Promise<void> {
  if (inStore(deps)) return removeStructureGraphs(deps, rels);
  await Promise.all(rels.map((rel) => fs.rm(path.join(structuresDir(deps.config), rel), { force: true }).catch(() => undefined)));
}

/** Removes compound `id`'s directory and everything in it. */
export async function removeCompoundDir(deps: FileDeps, id: number): Promise<void> {
  if (inStore(deps)) return removeCompoundGraphs(deps, id);
  await fs.rm(path.join(structuresDir(deps.config), String(id)), { recursive: true, force: true }).catch(() => undefined);
}

/**
 * Start-up repair: deletes temp files and files that no triple names (written before a
 * crash, or left behind by a delete), then empty directories. Returns what was removed.
 */
export async function repairStructureFiles(deps: FileDeps, referenced: ReadonlySet<string>): Promise<string[]> {
  // In the store, a graph may be named by a compound another process is committing now.
  if (inStore(deps)) return [];
  const root = structuresDir(deps.config);
  const removed: string[] = [];
  let dirs: string[];
  try {
    dirs = await fs.readdir(root);
  } catch {
    return removed;
  }
  for (const dir of dirs) {
    const full = path.join(root, dir);
    const stat = await fs.stat(full).catch(() => undefined);
    if (!stat) continue;
    if (!stat.isDirectory()) {
      await fs.rm(full, { force: true });
      removed.push(dir);
      continue;
    }
    const files = await fs.readdir(full);
    let kept = 0;
    for (const name of files) {
      const rel = `${dir}/${name}`;
      if (referenced.has(rel)) kept++;
      else {
        await fs.rm(path.join(full, name), { recursive: true, force: true });
        removed.push(rel);
      }
    }
    if (kept === 0) await fs.rm(full, { recursive: true, force: true });
  }
  return removed;
}
