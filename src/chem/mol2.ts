// Tripos mol2 (SPEC §2.2 chemical/x-mol2): no toolkit here reads or writes it, and the
// format is simple. Formal charges travel in the charge column (USER_CHARGES), which is
// how we write them and how we read integral charges back.
import { BadRequest } from '../errors.ts';
import { ERR } from '../rdf/vocab.ts';
import { readCtab, writeCtab, type Ctab, type CtabAtom } from './ctab.ts';

const bad = (message: string) => new BadRequest(`Tripos mol2: ${message}`, { code: ERR.InvalidStructure });

/** SYBYL atom type from element, charge and the bonds at the atom. */
function sybylType(atom: CtabAtom, orders: number[]): string {
  const max = Math.max(0, ...orders);
  const e = atom.symbol;
  if (e === 'C') return max === 3 ? 'C.1' : max === 4 ? 'C.ar' : max === 2 ? 'C.2' : 'C.3';
  if (e === 'N') return atom.charge > 0 && orders.length === 4 ? 'N.4' : max === 3 ? 'N.1' : max === 4 ? 'N.ar' : max === 2 ? 'N.2' : 'N.3';
  if (e === 'O') return max === 2 ? 'O.2' : 'O.3';
  if (e === 'S') return max === 2 && orders.length === 1 ? 'S.2' : 'S.3';
  if (e === 'P') return 'P.3';
  return e;
}

/** Writes a V2000 molfile as mol2. */
export function molfileToMol2(molfile: string, name: string): string {
  const ctab = readCtab(molfile);
  const orders = ctab.atoms.map(() => [] as number[]);
  // Bond ends index atoms: readCtab's molfile comes from a toolkit and is consistent.
  for (const b of ctab.bonds) {
    orders[b.a]!.push(b.order);
    orders[b.b]!.push(b.order);
  }
  const out = ['@<TRIPOS>MOLECULE', name || 'compound', `${ctab.atoms.length} ${ctab.bonds.length} 1 0 0`, 'SMALL', 'USER_CHARGES', '', '@<TRIPOS>ATOM'];
  ctab.atoms.forEach((a, i) => {
    const label = `${a.symbol}${i + 1}`;
    out.push(`${String(i + 1).padStart(7)} ${label.padEnd(8)}${a.x.toFixed(4).padStart(10)}${a.y.toFixed(4).padStart(10)}${a.z.toFixed(4).padStart(10)} ${sybylType(a, orders[i]!).padEnd(6)} 1  UNL1 ${a.charge.toFixed(4).padStart(10)}`);
  });
  out.push('@<TRIPOS>BOND');
  ctab.bonds.forEach((b, i) => out.push(`${String(i + 1).padStart(6)}${String(b.a + 1).padStart(6)}${String(b.b + 1).padStart(6)}    ${b.order === 4 ? 'ar' : b.order}`));
  return out.join('\n') + '\n';
}

const BOND_ORDER: Record<string, number> = { '1': 1, '2': 2, '3': 3, ar: 4, am: 1, du: 1, un: 1, nc: 0 };

/** Reads the first molecule of a mol2 text into a V2000 molfile, naming bad lines. */
export function mol2ToMolfile(text: string): string {
  const lines = text.split(/\r?\n/);
  const section = (tag: string) => lines.findIndex((l) => l.trim().toUpperCase() === `@<TRIPOS>${tag}`);
  const mol = section('MOLECULE');
  const atomAt = section('ATOM');
  if (mol < 0 || atomAt < 0) throw bad('no @<TRIPOS>MOLECULE and @<TRIPOS>ATOM sections');
  const counts = (lines[mol + 2] ?? '').trim().split(/\s+/).map(Number);
  const [na, nb = 0] = counts;
  if (na === undefined || !Number.isInteger(na) || na <= 0) throw bad(`line ${mol + 3}: expected atom and bond counts, got "${lines[mol + 2] ?? ''}"`);
  const userCharges = /USER_CHARGES|FORMAL/i.test(lines[mol + 4] ?? '');
  const ctab: Ctab = { name: (lines[mol + 1] ?? '').trim(), atoms: [], bonds: [] };
  for (let i = 0; i < na; i++) {
    const n = atomAt + 1 + i;
    const p = (lines[n] ?? '').trim().split(/\s+/);
    const [x, y, z] = [Number(p[2]), Number(p[3]), Number(p[4])];
    const type = p[5];
    if (type === undefined || ![x, y, z].every(Number.isFinite)) throw bad(`line ${n + 1}: atom ${i + 1} is malformed; expected "id name x y z type"`);
    const symbol = type.split('.')[0]!;
    const q = Number(p[8] ?? 0);
    let charge = userCharges && Number.isInteger(q) ? q : 0;
    if (type === 'N.4' && charge === 0) charge = 1;
    ctab.atoms.push({ symbol: symbol.length > 1 ? symbol.charAt(0) + symbol.slice(1).toLowerCase() : symbol, x, y, z, charge });
  }
  const bondAt = section('BOND');
  if (nb > 0 && bondAt < 0) throw bad(`${nb} bonds announced but no @<TRIPOS>BOND section`);
  for (let i = 0; i < nb; i++) {
    const n = bondAt + 1 + i;
    const p = (lines[n] ?? '').trim().split(/\s+/);
    const a = Number(p[1]) - 1;
    const b = Number(p[2]) - 1;
    const order = BOND_ORDER[(p[3] ?? '').toLowerCase()];
    if (!(a >= 0 && a < na && b >= 0 && b < na) || order === undefined) throw bad(`line ${n + 1}: bond ${i + 1} is malformed ("${(lines[n] ?? '').trim()}")`);
    if (order > 0) ctab.bonds.push({ a, b, order });
  }
  return writeCtab(ctab);
}
