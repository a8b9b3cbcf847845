// Test data from public OpenTox test suites lives in ../shared/data beside the repository
// (CI has it there too); it is read from there, never copied in.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const candidates = [path.resolve(repoRoot, '../shared/data'), path.resolve(repoRoot, '../../shared/data'), '/work/shared/data'];

export const SHARED_DATA = candidates.find((c) => existsSync(c)) ?? candidates[0]!;

/** Path of a file under shared/data, e.g. sharedData('opentox-test', 'kazius.csv'). */
export function sharedData(...parts: string[]): string {
  return path.join(SHARED_DATA, ...parts);
}
