// Structural alerts for Ames mutagenicity as SMARTS, after the toxicophores of Kazius,
// McGuire & Bursi, "Derivation and validation of toxicophores for mutagenicity
// prediction", J. Med. Chem. 2005, 48, 312-320: aromatic nitro, aromatic amine,
// three-membered heterocycle, nitroso, unsubstituted heteroatom-bonded heteroatom,
// azo-type, aliphatic halide, polycyclic aromatic system and their specific forms. The
// SMARTS are written for this service. Alerts of other lists follow them, and three groups
// last that lower the risk of an aromatic amine or nitro (the paper's "specific" alerts are
// defined against such substituents), so a learner can weigh them against the alerts.
import type { Mol } from '@rdkit/rdkit';
import { rdkitSync } from './rdkitLazy.ts';

export interface Toxicophore { name: string; smarts: string }

export const TOXICOPHORES: readonly Toxicophore[] = [
  { name: 'aromatic nitro', smarts: 'a[NX3](~[OX1])~[OX1]' },
  { name: 'aromatic primary amine', smarts: 'a[NX3;H2]' },
  { name: 'aromatic N-alkyl amine', smarts: 'a[NX3;H1][CX4]' },
  { name: 'aromatic hydroxylamine', smarts: 'a[NX3][OX2H1]' },
  { name: 'ester of an aromatic hydroxylamine', smarts: 'a[NX3][OX2][CX3]=O' },
  { name: 'aromatic nitroso', smarts: 'a[NX2]=[OX1]' },
  { name: 'alkyl nitrite', smarts: '[CX4][OX2][NX2]=[OX1]' },
  { name: 'nitrosamine', smarts: '[#7][NX2]=[OX1]' },
  { name: 'aliphatic N-nitro', smarts: '[#7][NX3](~[OX1])~[OX1]' },
  { name: 'three-membered heterocycle (epoxide, aziridine...)', smarts: '[r3;!#6]' },
  { name: 'azide', smarts: '[#7]=[#7+]=[#7-]' },
  { name: 'diazo', smarts: '[#6]=[#7+]=[#7-]' },
  { name: 'triazene', smarts: '[NX2]=[NX2][NX3]' },
  { name: 'aromatic azo', smarts: 'a[NX2]=[NX2]a' },
  { name: 'azoxy', smarts: '[#6][NX2]=[NX3+]([OX1-])[#6]' },
  { name: 'diazonium', smarts: '[#6][NX2+]#[NX1]' },
  { name: 'unsubstituted heteroatom-bonded heteroatom', smarts: '[OX2H1,NX3H2][#7,#8]' },
  { name: 'hydrazine (neither N acylated)', smarts: '[N;X3;!$(N~[OX1]);!$(N[#6]=[O,S])]-[N;X3;!$(N~[OX1]);!$(N[#6]=[O,S])]' },
  { name: 'aliphatic halide', smarts: '[Cl,Br,I][CX4]' },
  { name: 'carboxylic acid halide', smarts: '[CX3](=O)[Cl,Br,I]' },
  { name: 'nitrogen or sulphur mustard', smarts: '[#7,#16][CH2][CH2][Cl,Br,I]' },
  { name: 'alkyl sulphonate or sulphate', smarts: '[CX4][OX2][SX4](=O)=O' },
  { name: 'beta-propiolactone', smarts: 'O=[#6]1[#8][#6][#6]1' },
  { name: 'alpha,beta-unsaturated aldehyde', smarts: '[CX3]=[CX3][CX3H1]=O' },
  { name: 'isocyanate or isothiocyanate', smarts: '[NX2]=[CX2]=[O,S]' },
  { name: 'polycyclic aromatic system, linear (anthracene-like)', smarts: 'a1aaa2aa3aaaaa3aa2a1' },
  { name: 'polycyclic aromatic system, angular (phenanthrene-like, bay region)', smarts: 'a1aaa2a(a1)aaa1aaaaa12' },
  { name: 'heteroaromatic N-oxide', smarts: '[n+][OX1-]' },
  // Alerts of Ashby & Tennant (Mutat. Res. 1988, 204, 17-115) and Benigni & Bossa (Chem. Rev. 2011, 111, 2507-2536) beyond the list above.
  { name: 'aromatic amide', smarts: 'a[NX3H1][CX3](=O)[#6]' },
  { name: 'halo-alkene', smarts: '[Cl,Br,I][CX3]=[CX3]' },
  { name: 'aldehyde', smarts: '[CX3H1](=O)[#6]' },
  { name: 'alpha,beta-unsaturated carbonyl (Michael acceptor)', smarts: '[CX3]=[CX3][CX3]=O' },
  { name: 'alpha-halo carbonyl', smarts: '[Cl,Br,I][CX4][CX3]=O' },
  { name: 'peroxide', smarts: '[OX2][OX2]' },
  { name: 'quinone', smarts: 'O=[#6]1[#6]=,:[#6][#6](=O)[#6]=,:[#6]1' },
  { name: 'polyhalogenated carbon', smarts: '[CX4]([Cl,Br,I])[Cl,Br,I]' },
  { name: 'nitrofuran or nitrothiophene', smarts: '[o,s]1cccc1[N+](=O)[O-]' },
  { name: 'aromatic atom of three rings (peri-fused polycyclic)', smarts: '[a;R3]' },
  { name: 'coumarin', smarts: 'O=c1ccc2ccccc2o1' },
  { name: 'sulphonic acid or sulphonate', smarts: '[SX4](=O)(=O)[OX2H1,OX1-]' },
  { name: 'sulphonamide', smarts: '[SX4](=O)(=O)[NX3]' },
  { name: 'trifluoromethyl', smarts: '[CX4](F)(F)F' },
];

/** Runs `fn` with the TOXICOPHORES compiled as RDKit queries (none unless `compile`), freed after; rdkit() has resolved. */
export function withToxicophores<T>(fn: (queries: readonly Mol[]) => T, compile = true): T {
  const queries = compile ? TOXICOPHORES.map((t) => rdkitSync().get_qmol(t.smarts)!) : [];
  try {
    return fn(queries);
  } finally {
    for (const q of queries) q.delete();
  }
}

/** 1 where the molecule matches the query, else 0, per query. */
export function matchesOf(mol: Mol, queries: readonly Mol[]): number[] {
  // get_substruct_match answers "{}" when the pattern does not match.
  return queries.map((q) => (mol.get_substruct_match(q) === '{}' ? 0 : 1));
}
