// Name and version of this service and of the installed packages that compute a model's
// vectors and write its exports, for the producer field of an ONNX file and QMRF §1.3/§4.6.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// src/models/export and dist/models/export both sit three levels below the package root.
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

function packageJson(dir: string): { name?: string; version?: string; description?: string } {
  try {
    return JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
  } catch {
    return {};
  }
}

export interface Software { name: string; version: string; description: string }

let own: Software | undefined;

export function serviceSoftware(): Software {
  const p = packageJson(ROOT);
  own ??= { name: p.name ?? 'opentox-service', version: p.version ?? 'unknown', description: p.description ?? '' };
  return own;
}

/** An installed dependency's version, e.g. '@rdkit/rdkit'; 'unknown' when it cannot be read. */
export function packageVersion(name: string): string {
  return packageJson(path.join(ROOT, 'node_modules', name)).version ?? 'unknown';
}
