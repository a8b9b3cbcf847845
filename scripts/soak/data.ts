// Test input made from the shared Kazius mutagenicity set (SMILES and a 0/1 label).
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// Beside the repository, as test/helpers/data.ts looks for it.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const candidates = [path.resolve(root, '../shared/data'), path.resolve(root, '../../shared/data'), '/work/shared/data'];
const KAZIUS = path.join(candidates.find((c) => existsSync(c)) ?? candidates[0]!, 'opentox-test', 'kazius.csv');

export interface Row { smiles: string; label: string }

let rows: Row[] | undefined;

/** The Kazius rows (SMILES,Mutagenicity); the file has no quoted fields. */
export function kazius(file = process.env.SOAK_KAZIUS ?? KAZIUS): Row[] {
  rows ??= readFileSync(file, 'utf8').split(/\r?\n/).slice(1).filter(Boolean).map((line) => {
    const [smiles, label] = line.split(',');
    // A line without both fields is a broken data file, not a row to send.
    if (smiles === undefined || label === undefined) throw new Error(`${file}: not a SMILES,Mutagenicity line: ${line}`);
    return { smiles, label };
  });
  return rows;
}

/** A CSV of `n` rows taken in turn from Kazius from `start`, each with its row number. */
export function kaziusCsv(n: number, start = 0): string {
  const all = kazius();
  const lines = ['SMILES,Mutagenicity,Row'];
  for (let i = 0; i < n; i++) {
    const r = all[(start + i) % all.length]!;
    lines.push(`${r.smiles},${r.label},${i + 1}`);
  }
  return lines.join('\n') + '\n';
}
