// Linear substructures (paths of heavy atoms) of molecules, written as SMARTS, for
// frequent substructure mining. A path SMARTS matches exactly the molecules
// that contain that path, so mined features can be re-matched by SMARTS later.
import { rdkit, withMol } from './rdkitLazy.ts';

const SYMBOLS: Record<number, string> = { 5: 'B', 6: 'C', 7: 'N', 8: 'O', 9: 'F', 14: 'Si', 15: 'P', 16: 'S', 17: 'Cl', 34: 'Se', 35: 'Br', 53: 'I' };

function atomSmarts(atomicNo: number, aromatic: boolean): string {
  return `[#${atomicNo};${aromatic ? 'a' : 'A'}]`;
}

function bondSmarts(order: number, aromatic: boolean): string {
  if (aromatic) return ':';
  return order === 2 ? '=' : order === 3 ? '#' : '-';
}

/** Readable title of a path SMARTS, e.g. c:c-N=O. */
export function fragmentTitle(smarts: string): string {
  return smarts.replace(/\[#(\d+);([aA])\]/g, (_m, z: string, a: string) => {
    const sym = SYMBOLS[Number(z)] ?? `#${z}`;
    return a === 'a' ? sym.toLowerCase() : sym;
  });
}

interface JsonAtom { z?: number }
interface JsonBond { bo?: number; atoms: [number, number] }
interface JsonMol {
  atoms: JsonAtom[];
  bonds?: JsonBond[];
  extensions?: Array<{ name: string; aromaticAtoms?: number[]; aromaticBonds?: number[] }>;
}
interface JsonDoc { defaults: { atom: JsonAtom; bond: { bo?: number } }; molecules: JsonMol[] }

/** Bond orders a path SMARTS can name (RDKit JSON: 1, 2, 3; dative and zero-order bonds are left out). */
const ORDERS = new Set([1, 2, 3]);

/**
 * The distinct path SMARTS (1 to maxBonds bonds) of each SMILES, undefined where the
 * structure does not parse (an empty set for one without bonds). RDKit perceives the
 * molecule, the same toolkit and aromaticity model that matches SMARTS later, so a
 * fragment is found exactly where its SMARTS matches (openchemlib's aromaticity differs
 * on heteroaromatic rings). Each path is written in its lexically smaller direction.
 */
export async function linearFragments(smiles: readonly string[], maxBonds: number): Promise<Array<Set<string> | undefined>> {
  await rdkit();
  return smiles.map((s) => withMol(s, (mol) => pathsOf(JSON.parse(mol.get_json()) as JsonDoc, maxBonds)));
}

function pathsOf(doc: JsonDoc, maxBonds: number): Set<string> {
  const found = new Set<string>();
  for (const m of doc.molecules) {
    const rd = m.extensions?.find((e) => e.name === 'rdkitRepresentation');
    const aromaticAtoms = new Set(rd?.aromaticAtoms ?? []);
    const aromaticBonds = new Set(rd?.aromaticBonds ?? []);
    const z = m.atoms.map((a) => a.z ?? doc.defaults.atom.z ?? 6);
    // Atom and bond indices below come from RDKit's own JSON and are in range.
    const atom = m.atoms.map((_, a) => atomSmarts(z[a]!, aromaticAtoms.has(a)));
    const heavy = (a: number) => z[a]! > 1;
    const neighbours = m.atoms.map(() => [] as Array<[number, string]>);
    (m.bonds ?? []).forEach((b, i) => {
      const order = b.bo ?? doc.defaults.bond.bo ?? 1;
      const aromatic = aromaticBonds.has(i);
      if (!aromatic && !ORDERS.has(order)) return;
      const [a1, a2] = b.atoms;
      if (!heavy(a1) || !heavy(a2)) return;
      const bs = bondSmarts(order, aromatic);
      neighbours[a1]!.push([a2, bs]);
      neighbours[a2]!.push([a1, bs]);
    });
    const visited = new Uint8Array(m.atoms.length);
    const forward: string[] = [];
    const backward: string[] = [];
    const walk = (a: number, depth: number) => {
      if (depth >= maxBonds) return;
      for (const [b, bs] of neighbours[a]!) {
        if (visited[b]) continue;
        forward.push(bs, atom[b]!);
        backward.unshift(atom[b]!, bs);
        const f = forward.join('');
        const r = backward.join('');
        found.add(f < r ? f : r);
        visited[b] = 1;
        walk(b, depth + 1);
        visited[b] = 0;
        forward.length -= 2;
        backward.splice(0, 2);
      }
    };
    for (let a = 0; a < m.atoms.length; a++) {
      if (!heavy(a)) continue;
      forward.length = 0;
      backward.length = 0;
      forward.push(atom[a]!);
      backward.push(atom[a]!);
      visited[a] = 1;
      walk(a, 0);
      visited[a] = 0;
    }
  }
  return found;
}
