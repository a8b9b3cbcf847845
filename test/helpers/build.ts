// The built JavaScript that `npm start` runs (dist/, from `npm run build`, which `npm ci`
// runs as its prepare script). Tests that start it build first, once per run: the build is
// incremental, so after `npm ci` it only checks that dist/ matches the sources.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const TSC = path.join(ROOT, 'node_modules/typescript/bin/tsc');

let built: Promise<unknown> | undefined;

/** Brings dist/ up to date with src/ (tsconfig.build.json). */
export function buildDist(): Promise<unknown> {
  built ??= promisify(execFile)(process.execPath, [TSC, '-p', 'tsconfig.build.json'], { cwd: ROOT, timeout: 240_000 });
  return built;
}
