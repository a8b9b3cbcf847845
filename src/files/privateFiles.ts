// Everything the service keeps on disk (journal, snapshots, users and token hashes, structure
// files, uploads, models, the search index) is its operator's alone: directories 0700, files
// 0600. The modes are passed on every mkdir and open, not left to the process umask, which is
// a process effect (only main.ts sets one) and which tests and worker threads do not share.
// A mode given at creation is still masked by the umask, which can only remove bits.
import { mkdirSync, openSync, promises as fsp, type OpenMode } from 'node:fs';

export const PRIVATE_DIR = 0o700;
export const PRIVATE_FILE = 0o600;

/** Creates `dir` and its missing parents, each 0700. */
export function mkdirPrivateSync(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR });
}

/** Creates `dir` and its missing parents, each 0700. */
export async function mkdirPrivate(dir: string): Promise<void> {
  await fsp.mkdir(dir, { recursive: true, mode: PRIVATE_DIR });
}

/** Opens `file`; if `flags` create it, it is created 0600. */
export function openPrivateSync(file: string, flags: OpenMode): number {
  return openSync(file, flags, PRIVATE_FILE);
}

/** Opens `file`; if `flags` create it, it is created 0600. */
export function openPrivate(file: string, flags: OpenMode): Promise<fsp.FileHandle> {
  return fsp.open(file, flags, PRIVATE_FILE);
}
