// A minimal connection table read from and written to V2000 molfiles, for the formats
// no toolkit here reads or writes (mol2, xyz).
export interface CtabAtom {
  symbol: string;
  x: number;
  y: number;
  z: number;
  charge: number;
}
export interface CtabBond {
  a: number; // 0-based atom indices
  b: number;
  /** 1, 2, 3, or 4 for aromatic. */
  order: number;
}
export interface Ctab {
  name: string;
  atoms: CtabAtom[];
  bonds: CtabBond[];
}

import { InternalError } from '../errors.ts';

const OLD_CHARGE: Record<number, number> = { 1: 3, 2: 2, 3: 1, 5: -1, 6: -2, 7: -3 };

/** Reads a V2000 molfile (as RDKit writes it) into a connection table. */
export function readCtab(molfile: string): Ctab {
  const lines = molfile.split(/\r?\n/);
  // The molfile comes from a toolkit, not from the client: a short one is our fault.
  const line = (i: number): string => {
    const l = lines[i];
    if (l === undefined) throw new InternalError(`molfile ends after ${lines.length} lines; line ${i + 1} expected`);
    return l;
  };
  const counts = line(3);
  const na = Number(counts.slice(0, 3));
  const nb = Number(counts.slice(3, 6));
  const atoms: CtabAtom[] = [];
  for (let i = 0; i < na; i++) {
    const l = line(4 + i);
    atoms.push({
      x: Number(l.slice(0, 10)), y: Number(l.slice(10, 20)), z: Number(l.slice(20, 30)),
      symbol: l.slice(31, 34).trim(), charge: OLD_CHARGE[Number(l.slice(36, 39))] ?? 0,
    });
  }
  const bonds: CtabBond[] = [];
  for (let i = 0; i < nb; i++) {
    const l = line(4 + na + i);
    bonds.push({ a: Number(l.slice(0, 3)) - 1, b: Number(l.slice(3, 6)) - 1, order: Number(l.slice(6, 9)) });
  }
  for (const l of lines.slice(4 + na + nb)) {
    if (!l.startsWith('M  CHG')) continue;
    const nums = l.slice(6).trim().split(/\s+/).map(Number);
    for (let k = 1; k + 1 < nums.length; k += 2) {
      const atom = atoms[nums[k]! - 1];
      if (!atom) throw new InternalError(`molfile charge line names atom ${nums[k]}, outside 1..${na}`);
      atom.charge = nums[k + 1]!;
    }
  }
  return { name: line(0).trim(), atoms, bonds };
}

const f = (n: number) => n.toFixed(4).padStart(10);
const d = (n: number) => String(n).padStart(3);

/** Writes a connection table as a V2000 molfile (charges as M  CHG lines). */
export function writeCtab(ctab: Ctab): string {
  const out = [ctab.name, '  opentox', '', `${d(ctab.atoms.length)}${d(ctab.bonds.length)}  0  0  0  0  0  0  0  0999 V2000`];
  for (const a of ctab.atoms) out.push(`${f(a.x)}${f(a.y)}${f(a.z)} ${a.symbol.padEnd(3)} 0  0  0  0  0  0  0  0  0  0  0  0`);
  for (const b of ctab.bonds) out.push(`${d(b.a + 1)}${d(b.b + 1)}${d(b.order)}  0`);
  const charged = ctab.atoms.map((a, i) => [i + 1, a.charge] as const).filter(([, c]) => c !== 0);
  for (let i = 0; i < charged.length; i += 8) {
    const part = charged.slice(i, i + 8);
    out.push(`M  CHG${d(part.length)}` + part.map(([n, c]) => ` ${d(n)} ${d(c)}`).join(''));
  }
  out.push('M  END');
  return out.join('\n') + '\n';
}
