// Small JSON files in DATA_DIR (users, tokens) written atomically: a temporary file is
// written and fsynced, then renamed over the old one, so a crash leaves the old or the new
// file, never half of one. Mode 0600: they hold password hashes and token hashes.
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import path from 'node:path';
import { mkdirPrivateSync, openPrivateSync } from '../files/privateFiles.ts';

export function readJson<T>(file: string, empty: T): T {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return empty;
    throw e;
  }
  try {
    return JSON.parse(text) as T;
  } catch (e) {
    throw new Error(`${file} is not valid JSON: ${(e as Error).message}`, { cause: e });
  }
}

export function writeJsonAtomic(file: string, value: unknown): void {
  mkdirPrivateSync(path.dirname(file));
  const tmp = `${file}.${process.pid}.tmp`;
  const fd = openPrivateSync(tmp, 'w');
  try {
    writeSync(fd, JSON.stringify(value, null, 2) + '\n');
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
  // The rename itself is durable only once the directory entry is synced.
  const dir = openSync(path.dirname(file), 'r');
  try {
    fsyncSync(dir);
  } finally {
    closeSync(dir);
  }
}
