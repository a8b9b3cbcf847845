// Readies the toolkits' machine code before the first real work. V8 first runs WebAssembly
// through its baseline compiler and recompiles a function with its optimising compiler only
// once the function has run hot, so the first thousand or so structures a process parses
// run at about half speed, while helper threads spend two to three seconds of CPU
// compiling. The optimised code belongs to the compiled module, which every thread of the
// process shares (V8 reuses the module for the same bytes), so one thread's warm-up serves
// all of them: the job threads, the parser threads and the event loop. The JavaScript
// around it (the parser, the toolkits' bindings) each thread optimises for itself, so the
// job threads each run the set (src/datasets/parseWorker.ts).
import { parseStructure, type ParseOptions } from './parse.ts';

/**
 * Small drug-like and toxicologically typical structures: aromatic and fused rings,
 * heteroaromatics, stereocentres and double-bond stereo, charges and salts, the alerts of
 * mutagenicity sets (nitro, azo, N-nitroso, epoxide, aziridine, azide, alkyl sulfate), and
 * a cage and an organosilicon, net charges of both signs and of two, a radical and single
 * atoms, so that each code path an upload takes runs hot.
 */
export const WARM_UP_STRUCTURES: readonly string[] = [
  'CC(=O)Oc1ccccc1C(=O)O', 'Cn1cnc2c1c(=O)n(C)c(=O)n2C', 'CC(C)Cc1ccc(cc1)[C@@H](C)C(=O)O', 'CC(=O)Nc1ccc(O)cc1',
  'CN1CCC[C@H]1c1cccnc1', 'C[C@]12CC[C@H]3[C@@H](CCC4=CC(=O)CC[C@]34C)[C@@H]1CC[C@@H]2O',
  'OC[C@H]1OC(O)[C@H](O)[C@@H](O)[C@@H]1O', 'c1ccc2cc3ccccc3cc2c1', 'c1ccc2c(c1)ccc1c3ccccc3ccc21',
  'O=[N+]([O-])c1ccc(N)cc1', 'Nc1ccc(cc1)/N=N/c1ccccc1', 'CN(C)N=O', 'C1CO1', 'C1CN1',
  'ClC(Cl)(Cl)C(c1ccc(Cl)cc1)c1ccc(Cl)cc1', 'NS(=O)(=O)c1ccc(N)cc1',
  'OP(=O)(O)OC[C@H]1O[C@@H](n2cnc3c(N)ncnc32)[C@H](O)[C@@H]1O', 'C[N+](C)(C)CCO',
  '[O-]C(=O)CC(=O)[O-].[Na+].[Na+]', 'c1ccc2[nH]ccc2c1', 'c1cnc[nH]1', 'c1ccncc1', 'O=C1NC(=O)c2ccccc21',
  'C/C=C/C(=O)O', 'F/C=C\\F', 'BrCCBr', 'ICC(=O)N', 'CCN=[N+]=[N-]', 'O=C(Cl)c1ccccc1', 'CCOS(=O)(=O)OCC',
  'COc1cc2c(cc1OC)C(=O)C(CC1CCN(Cc3ccccc3)CC1)C2', 'Clc1ccc2Oc3cc(Cl)c(Cl)cc3Oc2c1',
  'O=C1c2ccccc2C(=O)c2c1cccc2O', 'CC1=C(C(=O)O)N2C(=O)[C@@H](NC(=O)Cc3ccccc3)[C@H]2SC1', 'S=C(N)N',
  'OB(O)c1ccccc1', 'C1CCC2(CC1)OCCO2', 'C12C3C4C1C5C2C3C45', 'c1ccc(cc1)[Si](C)(C)C', 'N#Cc1ccccc1C#N',
  'CC(=O)[O-]', 'C[n+]1ccc(-c2cc[n+](C)cc2)cc1', '[N]=O', 'Cl', '[Na+].[Cl-]',
];

/**
 * Rounds of WARM_UP_STRUCTURES: 675 parses. Measured on kazius (docs/performance.md): after
 * 200 the next thousand structures still ran a few percent slow, after 600 at full speed.
 */
export const WARM_UP_ROUNDS = 15;

/** Parses the warm-up set `rounds` times with `options` (those of the work to come). */
export function warmUpToolkits(options: ParseOptions, rounds = WARM_UP_ROUNDS): void {
  for (let i = 0; i < rounds; i++) {
    for (const smiles of WARM_UP_STRUCTURES) parseStructure(smiles, 'smiles', options);
  }
}
