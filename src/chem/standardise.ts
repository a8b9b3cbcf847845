// Structure standardisation for data cleanup: keep the largest fragment and
// neutralise charges that a proton can remove, with openchemlib.
import { oclMolecule } from './oclLazy.ts';

const CHARGEABLE = new Set([7, 8, 15, 16, 34]);

/** Canonical SMILES of the standardised structure, or undefined when it does not parse. */
export function standardise(smiles: string, options: { largestFragment: boolean; neutralise: boolean }): string | undefined {
  const mol = oclMolecule(smiles);
  if (!mol) return undefined;
  if (options.largestFragment) mol.stripSmallFragments(false);
  if (options.neutralise) {
    mol.ensureHelperArrays(1);
    for (let a = 0; a < mol.getAtoms(); a++) {
      const charge = mol.getAtomCharge(a);
      if (charge === 0 || !CHARGEABLE.has(mol.getAtomicNo(a))) continue;
      // A charge balanced by a neighbour (nitro groups, N-oxides, zwitterions) stays.
      let balanced = false;
      for (let i = 0; i < mol.getConnAtoms(a); i++) if (mol.getAtomCharge(mol.getConnAtom(a, i)) * charge < 0) balanced = true;
      if (balanced) continue;
      // Anions take a proton; cations lose one only if they carry one (not quaternary N).
      if (charge < 0 || mol.getAllHydrogens(a) > 0) mol.setAtomCharge(a, 0);
    }
  }
  return mol.toIsomericSmiles();
}
