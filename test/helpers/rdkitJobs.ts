// RDKit-heavy functions run in worker threads by test/integration/taskCancelRdkit.test.ts:
// cancelling one mid-run must not hang the other threads that use RDKit (WASM).
import initRDKitModule, { type MainModule } from '@rdkit/rdkit';
import type { WorkerTools } from '../../src/tasks/worker.ts';

const SMILES = ['CCO', 'c1ccccc1O', 'CC(=O)Oc1ccccc1C(=O)O', 'CN1C=NC2=C1C(=O)N(C(=O)N2C)C', 'CC(C)Cc1ccc(cc1)C(C)C(=O)O'];

export const RDKIT_JOBS = new URL(import.meta.url);

let module: Promise<MainModule> | undefined;

/** Parses SMILES and computes Morgan fingerprints for `ms`; answers how many molecules it did. */
export async function rdkitSpin(input: { ms: number }, tools: WorkerTools): Promise<number> {
  const rd = await (module ??= initRDKitModule());
  const start = Date.now();
  let n = 0;
  while (Date.now() - start < input.ms) {
    tools.checkCancelled();
    const mol = rd.get_mol(SMILES[n % SMILES.length]!);
    try {
      mol?.get_morgan_fp(JSON.stringify({ radius: 2, nBits: 2048 }));
    } finally {
      mol?.delete();
    }
    n++;
  }
  return n;
}
