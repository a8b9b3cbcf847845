// RDKit's WASM module, initialised once on first use (per thread) for the algorithm
// side of src/chem: descriptors, fingerprints, SMARTS. Only src/chem imports toolkits.
import initRDKitModule, { type MainModule, type Mol } from '@rdkit/rdkit';

let loading: Promise<MainModule> | undefined;
let loaded: MainModule | undefined;

export function rdkit(): Promise<MainModule> {
  loading ??= initRDKitModule().then((m) => {
    loaded = m;
    return m;
  });
  return loading;
}

/** The module when already initialised (for synchronous loops after one await). */
export function rdkitSync(): MainModule {
  if (!loaded) throw new Error('RDKit is not initialised: await rdkit() first');
  return loaded;
}

/** Runs `fn` on the parsed molecule and frees it; undefined when the SMILES does not parse. */
export function withMol<T>(smiles: string, fn: (mol: Mol) => T): T | undefined {
  if (!smiles) return undefined;
  const mol = rdkitSync().get_mol(smiles);
  if (!mol) return undefined;
  try {
    return mol.is_valid() ? fn(mol) : undefined;
  } finally {
    mol.delete();
  }
}
