// Temp directories of a test run: each one made here is removed once every suite has run
// (rootHooks.ts), whether its test cleaned up or failed half-way, so a run leaves none behind.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * On globalThis: mocha loads the root hooks file through require() and the tests through
 * import(), which gives this module two instances with a list each.
 */
const registry = globalThis as typeof globalThis & { opentoxTempDirs?: string[] };
const made: string[] = (registry.opentoxTempDirs ??= []);

export function tempDir(prefix = 'opentox-test-'): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
}

export function removeTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}
