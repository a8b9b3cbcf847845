// 3D conformers with openchemlib's ConformerGenerator and MMFF94s+ clean-up; one
// conformer of a 2D structure first from its own drawing, lifted to 3D and minimised.
// Runs inside a worker thread (conformerWorker.ts). Each conformer is checked against the
// compound's standard InChI: one whose specified stereo did not survive (measured pitfall)
// or with atoms on top of each other is dropped. Stereo the compound leaves unspecified
// is embedded in whichever configuration the generator picks.
import * as OCL from 'openchemlib';
import { setChiralFlag } from './molfile.ts';
import { inchiOfMolfile } from './write.ts';
import { readCtab } from './ctab.ts';
import { clashOf, embeddingMismatch } from './embedding.ts';
import { checkCancelled } from '../tasks/cancellation.ts';

export interface ConformerRequest {
  /** The compound's structure (2D or 3D molfile, chiral flag set when stereo is absolute). */
  molfile: string;
  smiles: string;
  /** Standard InChI of the compound, whose specified stereo every conformer keeps ('' skips the check). */
  inchi: string;
  count: number;
  seed?: number;
}

export interface GeneratedConformer {
  molfile: string;
  /** MMFF94s+ energy in kcal/mol, undefined when the force field does not cover the atoms. */
  energy?: number;
}

let registered = false;

/** Up to `count` distinct 3D conformers, lowest energy first. */
export function generateConformers(req: ConformerRequest): GeneratedConformer[] {
  if (!registered) {
    OCL.Resources.registerFromNodejs();
    registered = true;
  }
  const read = () => withAnyConfiguration(OCL.Molecule.fromMolfile(setChiralFlag(req.molfile, req.smiles.includes('@'))));
  const out: GeneratedConformer[] = [];
  const seen = new Set<string>();
  const keep = (conformer: OCL.Molecule, maxIts = 1000) => {
    const energy = minimise(conformer, maxIts);
    const molfile = conformer.toMolfile();
    const signature = energy === undefined ? molfile : energy.toFixed(2);
    if (seen.has(signature)) return;
    if (req.inchi && embeddingMismatch(req.inchi, inchiOfMolfile(molfile))) return;
    if (clashOf(readCtab(molfile).atoms)) return;
    seen.add(signature);
    out.push({ molfile, energy });
  };
  // One conformer (xyz of a compound): the drawing lifted to 3D, else the generator's
  // single-shot path, which uses its cache of ring conformations and is measured several
  // times faster than its conformer series on fused rings.
  if (req.count === 1) {
    const lifted = liftedDrawing(read());
    if (lifted) keep(lifted, LIFTED_ITERATIONS);
    if (out.length) return out;
    const one = new OCL.ConformerGenerator(req.seed ?? 4242).getOneConformerAsMolecule(read());
    if (one) keep(one);
    if (out.length) return out;
  }
  const generator = new OCL.ConformerGenerator(req.seed ?? 4242);
  if (!generator.initializeConformers(read())) throw new Error('openchemlib cannot build 3D coordinates for this structure');
  for (let attempt = 0; attempt < req.count * 3 && out.length < req.count; attempt++) {
    checkCancelled();
    const conformer = generator.getNextConformerAsMolecule();
    if (!conformer) break;
    keep(conformer);
  }
  return out.sort((a, b) => (a.energy ?? 0) - (b.energy ?? 0));
}

/**
 * The molecule with an arbitrary configuration at every stereo centre and double bond the
 * structure leaves unspecified: a 3D structure has one anyway, and openchemlib, left to
 * choose, spends up to hundreds of times longer (measured: 2-methylbutanoic acid 477 ms
 * against 4 ms).
 */
function withAnyConfiguration(mol: OCL.Molecule): OCL.Molecule {
  const M = OCL.Molecule;
  mol.ensureHelperArrays(M.cHelperParities);
  let changed = false;
  for (let a = 0; a < mol.getAtoms(); a++) {
    if (mol.getAtomParity(a) !== M.cAtomParityUnknown) continue;
    mol.setAtomParity(a, M.cAtomParity1, false);
    changed = true;
  }
  for (let b = 0; b < mol.getBonds(); b++) {
    if (mol.getBondParity(b) !== M.cBondParityUnknown) continue;
    mol.setBondParity(b, M.cBondParityEor1, false);
    changed = true;
  }
  if (changed) {
    mol.setParitiesValid(0);
    mol.setStereoBondsFromParity();
  }
  return mol;
}

/** Minimiser steps from a lifted drawing, which starts further from a minimum than a generated conformer. */
const LIFTED_ITERATIONS = 4000;
/** Å: the bond length a drawing is scaled to, and how far a wedge lifts its far atom out of the plane. */
const BOND_LENGTH = 1.5;
const WEDGE_LIFT = 0.8;

/**
 * A 2D structure with explicit hydrogens, its drawing scaled to bond lengths and lifted
 * out of the plane: wedged bonds raise or lower their far atom, so that the force field
 * keeps each drawn stereo centre, and every other atom moves a little off the plane by a
 * fixed sequence, so that the minimiser leaves flat saddle points (an sp3 atom drawn flat,
 * a flat ring). Undefined for a structure that already has 3D coordinates. Measured on a
 * kazius sample: the MMFF94s+ minimum reached from it is within a few kcal/mol of the
 * generator's (often the same) at about a tenth of the time; the InChI and clash checks
 * decide as for any conformer.
 */
function liftedDrawing(mol: OCL.Molecule): OCL.Molecule | undefined {
  for (let a = 0; a < mol.getAllAtoms(); a++) if (mol.getAtomZ(a) !== 0) return undefined;
  mol.addImplicitHydrogens();
  mol.ensureHelperArrays(OCL.Molecule.cHelperRings);
  const length = mol.getAverageBondLength(true);
  const scale = length > 0 ? BOND_LENGTH / length : 1;
  let state = 4242;
  const jitter = () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return (state / 2147483648 - 0.5) * 0.6;
  };
  // openchemlib's drawing coordinates grow downwards: y is mirrored for a right-handed frame.
  for (let a = 0; a < mol.getAllAtoms(); a++) {
    mol.setAtomX(a, mol.getAtomX(a) * scale);
    mol.setAtomY(a, -mol.getAtomY(a) * scale);
    mol.setAtomZ(a, jitter());
  }
  for (let b = 0; b < mol.getAllBonds(); b++) {
    const type = mol.getBondType(b);
    if (type === OCL.Molecule.cBondTypeUp) mol.setAtomZ(mol.getBondAtom(1, b), WEDGE_LIFT);
    if (type === OCL.Molecule.cBondTypeDown) mol.setAtomZ(mol.getBondAtom(1, b), -WEDGE_LIFT);
  }
  return mol;
}

function minimise(conformer: OCL.Molecule, maxIts: number): number | undefined {
  try {
    const ff = new OCL.ForceFieldMMFF94(conformer, 'MMFF94s+');
    ff.minimise({ maxIts });
    return ff.getTotalEnergy();
  } catch {
    return undefined;
  }
}
