// openchemlib's property set: its cLogP and cLogS increments, polar surface
// area, drug-likeness score, donor/acceptor and rotatable bond counts.
import { ocl, oclMolecule } from './oclLazy.ts';

export interface OclPropertyInfo {
  name: string;
  title: string;
  units?: string;
}

export const OCL_PROPERTIES: readonly OclPropertyInfo[] = [
  { name: 'cLogP', title: 'openchemlib cLogP (atom-type increments)' },
  { name: 'cLogS', title: 'openchemlib cLogS (aqueous solubility, log mol/L)', units: 'log(mol/L)' },
  { name: 'PSA', title: 'openchemlib polar surface area', units: 'Å2' },
  { name: 'DrugLikeness', title: 'openchemlib drug-likeness score (fragment based)' },
  { name: 'Acceptors', title: 'openchemlib H-bond acceptor count' },
  { name: 'Donors', title: 'openchemlib H-bond donor count' },
  { name: 'RotatableBonds', title: 'openchemlib rotatable bond count' },
  { name: 'StereoCenters', title: 'openchemlib stereo centre count' },
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
      const v = all[info.name]();
      return Number.isFinite(v) ? v : null;
    });
  });
}
