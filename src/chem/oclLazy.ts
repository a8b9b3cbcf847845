// openchemlib for the algorithm side of src/chem, with its static resources (needed by
// the drug-likeness predictor) registered once on first use.
import * as OCL from 'openchemlib';

let registered = false;

export function ocl(): typeof OCL {
  if (!registered) {
    OCL.Resources.registerFromNodejs();
    registered = true;
  }
  return OCL;
}

/** The molecule of a SMILES, or undefined when it does not parse. */
export function oclMolecule(smiles: string): OCL.Molecule | undefined {
  if (!smiles) return undefined;
  try {
    const mol = ocl().Molecule.fromSmiles(smiles);
    return mol.getAllAtoms() > 0 ? mol : undefined;
  } catch {
    return undefined;
  }
}
