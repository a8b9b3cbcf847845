// Open Babel (Debian package openbabel) as an independent reader: what our writers produce
// must be readable by another toolkit, and the InChIKey it derives is the judge.
import { execFileSync } from 'node:child_process';

/** InChIKey Open Babel derives from `text` in its format `format` (smi, mol, sdf, mol2, cml, inchi, xyz). */
export function obabelInchiKey(text: string, format: string): string {
  const out = execFileSync('obabel', [`-i${format}`, '-oinchikey'], { input: text, encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'], timeout: 30_000 });
  return out.trim().split(/\s+/)[0] ?? '';
}

/** Canonical SMILES Open Babel writes for `text` in its format `format` ('' when it reads nothing). */
export function obabelSmiles(text: string, format: string): string {
  const out = execFileSync('obabel', [`-i${format}`, '-ocan'], { input: text, encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'], timeout: 30_000 });
  return out.trim().split(/\s+/)[0] ?? '';
}

/** True when RDKit 2022.09 (Debian python3-rdkit, before dative bonds were read) parses `smiles`. */
export function oldRdkitReads(smiles: string): boolean {
  const script = 'import sys\nfrom rdkit import Chem\nprint(Chem.MolFromSmiles(sys.stdin.read().strip()) is not None)';
  return execFileSync('/usr/bin/python3', ['-c', script], { input: smiles, encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'], timeout: 30_000 }).trim() === 'True';
}
