// A small tmpfs and a filler file, for what a full disk does to the service (the disk-full
// test and the soak's disk-full phase). Mounting needs root (CAP_SYS_ADMIN).
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmdirSync, rmSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Mounts a tmpfs of `size` (mount's syntax, e.g. 64m) on a new temp directory and answers
 * it; throws the reason, taken from mount's own message, when it cannot be mounted.
 */
export function mountTmpfs(size: string, prefix: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'pipe' });
  } catch (e) {
    rmdirSync(dir);
    const why = ((e as { stderr?: Buffer }).stderr?.toString() || (e as Error).message).trim().split('\n')[0];
    throw new Error(`cannot mount a tmpfs (needs root or CAP_SYS_ADMIN): ${why}`, { cause: e });
  }
  return dir;
}

/** Unmounts and removes a directory mountTmpfs made (quietly if it is busy or gone). */
export function unmountTmpfs(dir: string): void {
  try { execFileSync('umount', [dir], { stdio: 'pipe' }); } catch { /* busy or gone */ }
  rmSync(dir, { recursive: true, force: true });
}

/** Fills the file system holding `file` to its last byte. */
export function fill(file: string): void {
  const fd = openSync(file, 'w');
  try {
    for (const size of [1 << 20, 1 << 16, 1 << 12, 1 << 8, 1]) {
      const chunk = Buffer.alloc(size, 1);
      try {
        for (;;) writeSync(fd, chunk);
      } catch (e) {
        if ((e as { code?: string }).code !== 'ENOSPC') throw e;
      }
    }
  } finally {
    closeSync(fd);
  }
}
