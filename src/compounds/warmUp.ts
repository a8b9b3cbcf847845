// Readies the event loop's code for storing compounds before the first upload. V8 compiles
// a function with its optimising compiler once it has run hot, on helper threads that share
// the cores with the upload's parse; the first upload after a start otherwise pays for
// compiling its storing (the compound quads, the N-Triples of the journal record, the IRI
// checks, the store's bindings) and for the store's first bulk loads
// (docs/performance.md). The warm-up writes made-up compounds into a scratch store that is
// then freed: nothing reaches the service's store, journal or indexes.
import * as ox from 'oxigraph';
import { applyRecord, encodeOps, freeStore, type WriteOp } from '../store/records.ts';
import { compoundQuads } from './compoundQuads.ts';
import type { ParsedStructure } from '../chem/index.ts';
import { FP_WORDS } from '../chem/fingerprints.ts';

/** A parsed structure as an upload's parse worker sends it (src/datasets/parseWorker.ts). */
const ASPIRIN: ParsedStructure = {
  smiles: 'CC(=O)Oc1ccccc1C(=O)O',
  inchi: 'InChI=1S/C9H8O4/c1-6(10)13-8-5-3-2-4-7(8)9(11)12/h2-5H,1H3,(H,11,12)',
  inchiKey: 'BSYNRYMUTXBXSQ-UHFFFAOYSA-N',
  molfile: '',
  formula: 'C9H8O4',
  molecularWeight: 180.159,
  is3D: false,
  fingerprints: { canonicalSmiles: 'CC(=O)Oc1ccccc1C(=O)O', morgan: new Uint32Array(FP_WORDS), pattern: undefined, pickle: new Uint8Array(0) },
};

/** Batches of made-up compounds written to a scratch store, one event-loop turn each. */
export async function warmCompoundWrites(baseUrl: string, batches = 8, size = 250): Promise<void> {
  const scratch = new ox.Store();
  try {
    for (let b = 0; b < batches; b++) {
      const ops: WriteOp[] = [];
      for (let i = 0; i < size; i++) {
        const id = b * size + i + 1;
        const uri = `${baseUrl}/compound/${id}`;
        // Cloned, as the worker's message is: V8 gives a cloned object (and its strings)
        // other hidden classes than a literal, and code optimised for one kind is thrown away
        // at the first of the other.
        const parsed = structuredClone({ ...ASPIRIN, smiles: `${ASPIRIN.smiles}.[${id % 90 + 1}*]` });
        ops.push({ op: 'add', graph: uri, quads: compoundQuads(uri, id, parsed, undefined) });
      }
      applyRecord(scratch, encodeOps(ops));
      await new Promise((resolve) => setImmediate(resolve));
    }
  } finally {
    freeStore(scratch);
  }
}
