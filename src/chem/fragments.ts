// Linear substructures (paths of heavy atoms) of molecules, written as SMARTS, for
// frequent substructure mining. A path SMARTS matches exactly the molecules
// that contain that path, so mined features can be re-matched by SMARTS later.
import { oclMolecule } from './oclLazy.ts';

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

/**
 * The distinct path SMARTS (1 to maxBonds bonds) of each SMILES; an empty set where the
 * structure does not parse. Each path is written in its lexically smaller direction.
 */
export function linearFragments(smiles: readonly string[], maxBonds: number): Array<Set<string>> {
  return smiles.map((s) => {
    const found = new Set<string>();
    const mol = oclMolecule(s);
    if (!mol) return found;
    mol.ensureHelperArrays(3);
    const heavy = (a: number) => mol.getAtomicNo(a) > 1;
    const atom = (a: number) => atomSmarts(mol.getAtomicNo(a), mol.isAromaticAtom(a));
    const visited = new Uint8Array(mol.getAtoms());
    const forward: string[] = [];
    const backward: string[] = [];
    const walk = (a: number, depth: number) => {
      if (depth >= maxBonds) return;
      for (let i = 0; i < mol.getConnAtoms(a); i++) {
        const b = mol.getConnAtom(a, i);
        if (visited[b] || !heavy(b)) continue;
        const bond = mol.getConnBond(a, i);
        const bs = bondSmarts(mol.getBondOrder(bond), mol.isAromaticBond(bond));
        forward.push(bs, atom(b));
        backward.unshift(atom(b), bs);
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
    for (let a = 0; a < mol.getAtoms(); a++) {
      if (!heavy(a)) continue;
      forward.length = 0;
      backward.length = 0;
      forward.push(atom(a));
      backward.push(atom(a));
      visited[a] = 1;
      walk(a, 0);
      visited[a] = 0;
    }
    return found;
  });
}
