// Physico-chemical and topological descriptors computed by RDKit, each
// with the Blue Obelisk descriptor ontology entry it corresponds to where one exists.
import { rdkit, withMol } from './rdkitLazy.ts';
import type { Mol } from '@rdkit/rdkit';
import { roundTo } from './precision.ts';

export interface DescriptorInfo {
  /** Parameter name that switches it on. */
  name: string;
  title: string;
  units?: string;
  /** Local name in the Blue Obelisk descriptor ontology. */
  blueObelisk?: string;
  /** Decimals the value is meaningful to; values are rounded to them (counts: 0). */
  digits: number;
  /** Key of RDKit's get_descriptors() JSON, or a computation of our own. */
  compute: string | ((mol: Mol) => number);
}

interface AtomJson { chg?: number }

function formalCharge(mol: Mol): number {
  const json = JSON.parse(mol.get_json()) as { molecules: Array<{ atoms: AtomJson[] }> };
  return json.molecules.flatMap((m) => m.atoms).reduce((s, a) => s + (a.chg ?? 0), 0);
}

export const DESCRIPTORS: readonly DescriptorInfo[] = [
  { name: 'MW', title: 'Molecular weight', units: 'g/mol', blueObelisk: 'weight', digits: 3, compute: 'amw' },
  { name: 'ExactMass', title: 'Monoisotopic exact mass', units: 'Da', digits: 4, compute: 'exactmw' },
  { name: 'LogP', title: 'Crippen logP', blueObelisk: 'ALOGP', digits: 2, compute: 'CrippenClogP' },
  { name: 'MR', title: 'Crippen molar refractivity', units: 'cm3/mol', digits: 2, compute: 'CrippenMR' },
  { name: 'TPSA', title: 'Topological polar surface area', units: 'Å2', blueObelisk: 'tpsa', digits: 2, compute: 'tpsa' },
  { name: 'HBD', title: 'Hydrogen bond donors (Lipinski)', blueObelisk: 'hBondDonors', digits: 0, compute: 'lipinskiHBD' },
  { name: 'HBA', title: 'Hydrogen bond acceptors (Lipinski)', blueObelisk: 'hBondacceptors', digits: 0, compute: 'lipinskiHBA' },
  { name: 'RotatableBonds', title: 'Rotatable bonds', blueObelisk: 'rotatableBondsCount', digits: 0, compute: 'NumRotatableBonds' },
  { name: 'Rings', title: 'Ring count', digits: 0, compute: 'NumRings' },
  { name: 'AromaticRings', title: 'Aromatic ring count', digits: 0, compute: 'NumAromaticRings' },
  { name: 'HeavyAtoms', title: 'Heavy atom count', digits: 0, compute: 'NumHeavyAtoms' },
  { name: 'Heteroatoms', title: 'Heteroatom count', digits: 0, compute: 'NumHeteroatoms' },
  { name: 'FractionCSP3', title: 'Fraction of sp3 carbons', digits: 3, compute: 'FractionCSP3' },
  { name: 'FormalCharge', title: 'Total formal charge', digits: 0, compute: (mol) => formalCharge(mol) },
  { name: 'StereoCentres', title: 'Atom stereo centres', digits: 0, compute: 'NumAtomStereoCenters' },
  { name: 'LabuteASA', title: "Labute's approximate surface area", units: 'Å2', digits: 2, compute: 'labuteASA' },
  { name: 'Kappa1', title: 'Kier shape index kappa 1', blueObelisk: 'kierValues', digits: 3, compute: 'kappa1' },
  { name: 'Chi0v', title: 'Valence connectivity index chi0v', blueObelisk: 'chiPath', digits: 3, compute: 'chi0v' },
];

/** Values of the `selected` descriptors for each SMILES, rounded to their digits (nulls where it does not parse). */
export async function computeDescriptors(smiles: readonly string[], selected: readonly DescriptorInfo[]): Promise<Array<Array<number | null>>> {
  await rdkit();
  return smiles.map((s) => withMol(s, (mol) => {
    const d = JSON.parse(mol.get_descriptors()) as Record<string, number>;
    return selected.map((info) => {
      const v = typeof info.compute === 'string' ? d[info.compute] : info.compute(mol);
      return v !== undefined && Number.isFinite(v) ? roundTo(v, info.digits) : null;
    });
  }) ?? selected.map(() => null));
}
