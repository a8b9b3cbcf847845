// openchemlib's property set: its cLogP and cLogS increments, polar surface
// area, drug-likeness score, donor/acceptor and rotatable bond counts.
import { ocl, oclMolecule } from './oclLazy.ts';
import { roundTo } from './precision.ts';
import { InternalError } from '../errors.ts';

export interface OclPropertyInfo {
  name: string;
  title: string;
  units?: string;
  /** Decimals the value is meaningful to; values are rounded to them (counts: 0). */
  digits: number;
  /** Computed unless switched off; false for a property too slow to run unasked. */
  default: boolean;
  /** What computing it costs, said in the parameter's description. */
  cost?: string;
}

export const OCL_PROPERTIES: readonly OclPropertyInfo[] = [
  { name: 'cLogP', title: 'openchemlib cLogP (atom-type increments)', digits: 2, default: true },
  { name: 'cLogS', title: 'openchemlib cLogS (aqueous solubility, log mol/L)', units: 'log(mol/L)', digits: 2, default: true },
  { name: 'PSA', title: 'openchemlib polar surface area', units: 'Å2', digits: 2, default: true },
  {
    name: 'DrugLikeness', title: 'openchemlib drug-likeness score (fragment based)', digits: 3, default: false,
    // Measured: one substructure search per fragment of its table for every molecule.
    cost: 'slow: about 0.5 s per structure, some 35 minutes for the 4,300 of kazius, 80 times all other properties together; off unless set to true',
  },
  { name: 'Acceptors', title: 'openchemlib H-bond acceptor count', digits: 0, default: true },
  { name: 'Donors', title: 'openchemlib H-bond donor count', digits: 0, default: true },
  { name: 'RotatableBonds', title: 'openchemlib rotatable bond count', digits: 0, default: true },
  { name: 'StereoCenters', title: 'openchemlib stereo centre count', digits: 0, default: true },
];

export function computeOclProperties(smiles: readonly string[], selected: readonly OclPropertyInfo[]): Array<Array<number | null>> {
  const OCL = ocl();
  const druglikeness = new OCL.DruglikenessPredictor();
  return smiles.map((s) => {
    const mol = oclMolecule(s);
    if (!mol) return selected.map(() => null);
    const p = new OCL.MoleculeProperties(mol);
    const all: Record<string, () => number> = {
      cLogP: () => p.logP,
      cLogS: () => p.logS,
      PSA: () => p.polarSurfaceArea,
      DrugLikeness: () => druglikeness.assessDruglikeness(mol),
      Acceptors: () => p.acceptorCount,
      Donors: () => p.donorCount,
      RotatableBonds: () => p.rotatableBondCount,
      StereoCenters: () => p.stereoCenterCount,
    };
    return selected.map((info) => {
      const compute = all[info.name];
      if (!compute) throw new InternalError(`openchemlib property "${info.name}" has no computation`);
      const v = compute();
      return Number.isFinite(v) ? roundTo(v, info.digits) : null;
    });
  });
}
