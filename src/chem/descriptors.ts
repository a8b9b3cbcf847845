// Physico-chemical and topological descriptors computed by RDKit, each
// with the Blue Obelisk descriptor ontology entry it corresponds to where one exists.
import { rdkit, withMol } from './rdkitLazy.ts';
import type { Mol } from '@rdkit/rdkit';

export interface DescriptorInfo {
  /** Parameter name that switches it on. */
  name: string;
  title: string;
  units?: string;
  /** Local name in the Blue Obelisk descriptor ontology. */
  blueObelisk?: string;
  /** Key of RDKit's get_descriptors() JSON, or a computation of our own. */
  compute: string | ((mol: Mol) => number);
}

interface AtomJson { chg?: number }

function formalCharge(mol: Mol): number {
  const json = JSON.parse(mol.get_json()) as { molecules: Array<{ atoms: AtomJson[] }> };
  return json.molecules.flatMap((m) => m.atoms).reduce((s, a) => s + (a.chg ?? 0), 0);
}

export const DESCRIPTORS: readonly DescriptorInfo[] = [
  { name: 'MW', title: 'Molecular weight', units: 'g/mol', blueObelisk: 'weight', compute: 'amw' },
  { name: 'ExactMass', title: 'Monoisotopic exact mass', units: 'Da', compute: 'exactmw' },
  { name: 'LogP', title: 'Crippen logP', blueObelisk: 'ALOGP', compute: 'CrippenClogP' },
  { name: 'MR', title: 'Crippen molar refractivity', units: 'cm3/mol', compute: 'CrippenMR' },
  { name: 'TPSA', title: 'Topological polar surface area', units: 'Å2', blueObelisk: 'tpsa', compute: 'tpsa' },
  { name: 'HBD', title: 'Hydrogen bond donors (Lipinski)', blueObelisk: 'hBondDonors', compute: 'lipinskiHBD' },
  { name: 'HBA', title: 'Hydrogen bond acceptors (Lipinski)', blueObelisk: 'hBondacceptors', compute: 'lipinskiHBA' },
  { name: 'RotatableBonds', title: 'Rotatable bonds', blueObelisk: 'rotatableBondsCount', compute: 'NumRotatableBonds' },
  { name: 'Rings', title: 'Ring count', compute: 'NumRings' },
  { name: 'AromaticRings', title: 'Aromatic ring count', compute: 'NumAromaticRings' },
  { name: 'HeavyAtoms', title: 'Heavy atom count', compute: 'NumHeavyAtoms' },
  { name: 'Heteroatoms', title: 'Heteroatom count', compute: 'NumHeteroatoms' },
  { name: 'FractionCSP3', title: 'Fraction of sp3 carbons', compute: 'FractionCSP3' },
  { name: 'FormalCharge', title: 'Total formal charge', compute: (mol) => formalCharge(mol) },
  { name: 'StereoCentres', title: 'Atom stereo centres', compute: 'NumAtomStereoCenters' },
  { name: 'LabuteASA', title: "Labute's approximate surface area", units: 'Å2', compute: 'labuteASA' },
  { name: 'Kappa1', title: 'Kier shape index kappa 1', blueObelisk: 'kierValues', compute: 'kappa1' },
  { name: 'Chi0v', title: 'Valence connectivity index chi0v', blueObelisk: 'chiPath', compute: 'chi0v' },
];

/** Values of the `selected` descriptors for each SMILES (nulls where it does not parse). */
export async function computeDescriptors(smiles: readonly string[], selected: readonly DescriptorInfo[]): Promise<Array<Array<number | null>>> {
  await rdkit();
  return smiles.map((s) => withMol(s, (mol) => {
    const d = JSON.parse(mol.get_descriptors()) as Record<string, number>;
    return selected.map((info) => {
      const v = typeof info.compute === 'string' ? d[info.compute] : info.compute(mol);
      return Number.isFinite(v) ? v : null;
    });
  }) ?? selected.map(() => null));
}
