// Child process of the substructure search: exact RDKit matching runs here so
// a pathological SMARTS never blocks the event loop, and the service can kill it when a
// search exceeds its time limit. A process, not a worker thread: on Node 20 a thread
// terminated while V8 tiers up RDKit's WASM leaves sibling threads that share the compiled
// module deadlocked. Queries arrive already validated by src/chem/smarts.ts.
import process from 'node:process';
import { TextDecoder } from 'node:util';
import initRDKitModule, { type Mol } from '@rdkit/rdkit';
import { substructureQuery, type QueryKind } from './substructQuery.ts';

/** What src/search/matcherPool.ts sends: the molecules' pickles (or SMILES) end to end, `ends[i]` where molecule i ends. */
interface Job {
  id: number;
  kind: 'smarts' | 'smiles' | 'pattern' | 'fingerprints';
  text: string;
  pickles: Uint8Array;
  ends: Uint32Array;
}

type Structure = { canonicalSmiles: string; morgan: Uint32Array; pattern?: Uint32Array; pickle: Uint8Array } | { error: string };

const rdkit = await initRDKitModule();
// Silence RDKit's log: the queries were validated on the main thread.
rdkit.disable_logging();

/** The compiled query of the current search, kept across its chunks. */
let current: { key: string; mol: Mol } | undefined;

function queryFor(kind: QueryKind, text: string): Mol {
  const key = kind + '\n' + text;
  if (current?.key !== key) {
    current?.mol.delete();
    // The same molecule the screen was computed from (src/chem/smarts.ts).
    const mol = substructureQuery(rdkit, kind, text);
    if (!mol) throw new Error(`cannot read ${kind} "${text}"`);
    current = { key, mol };
  }
  return current.mol;
}

/**
 * The pattern fingerprints (RDKit's options in job.text) of the job's molecules, end to end
 * as 32-bit words: the search index computes them here for compounds posted without one.
 */
function patterns(job: Job): { id: number; value: Uint32Array } {
  let out = new Uint8Array(0);
  let start = 0;
  for (let i = 0; i < job.ends.length; i++) {
    const mol = rdkit.get_mol_from_uint8array(job.pickles.subarray(start, job.ends[i]));
    start = job.ends[i]!;
    if (!mol) throw new Error(`molecule ${i} of the batch could not be read back from its pickle`);
    try {
      const bytes = mol.get_pattern_fp_as_uint8array(job.text);
      // Every fingerprint has the length the options give.
      if (i === 0) out = new Uint8Array(job.ends.length * bytes.byteLength);
      out.set(bytes, i * bytes.byteLength);
    } finally {
      mol.delete();
    }
  }
  return { id: job.id, value: new Uint32Array(out.buffer) };
}

/**
 * Everything the search index keeps of the job's molecules, given as SMILES (UTF-8, end to
 * end in job.pickles): canonical SMILES, Morgan and pattern fingerprints (RDKit's options
 * in job.text, as { morgan, pattern }; no pattern when its options are left out) and the
 * pickle. The index computes them here for compounds posted without them; a SMILES RDKit
 * cannot read gets { error }.
 */
function fingerprints(job: Job): { id: number; structures: Structure[] } {
  const options = JSON.parse(job.text) as { morgan: string; pattern?: string };
  const decoder = new TextDecoder();
  const structures: Structure[] = [];
  let start = 0;
  for (let i = 0; i < job.ends.length; i++) {
    const smiles = decoder.decode(job.pickles.subarray(start, job.ends[i]));
    start = job.ends[i]!;
    const mol = rdkit.get_mol(smiles);
    if (!mol || !mol.is_valid()) {
      mol?.delete();
      structures.push({ error: `RDKit cannot read "${smiles}"` });
      continue;
    }
    try {
      structures.push({
        canonicalSmiles: mol.get_smiles(),
        morgan: new Uint32Array(new Uint8Array(mol.get_morgan_fp_as_uint8array(options.morgan)).buffer),
        pattern: options.pattern === undefined ? undefined : new Uint32Array(new Uint8Array(mol.get_pattern_fp_as_uint8array(options.pattern)).buffer),
        pickle: new Uint8Array(mol.get_as_uint8array()),
      });
    } finally {
      mol.delete();
    }
  }
  return { id: job.id, structures };
}

function run(job: Job): { id: number; value?: Uint32Array; structures?: Structure[] } {
  if (job.kind === 'pattern') return patterns(job);
  if (job.kind === 'fingerprints') return fingerprints(job);
  const query = queryFor(job.kind, job.text);
  const matched: number[] = [];
  let start = 0;
  for (let i = 0; i < job.ends.length; i++) {
    const mol = rdkit.get_mol_from_uint8array(job.pickles.subarray(start, job.ends[i]));
    start = job.ends[i]!;
    if (!mol) continue;
    try {
      if (mol.get_substruct_match(query) !== '{}') matched.push(i);
    } finally {
      mol.delete();
    }
  }
  return { id: job.id, value: Uint32Array.from(matched) };
}

process.on('message', (job: Job) => {
  let result: ReturnType<typeof run> | { id: number; error: string };
  try {
    result = run(job);
  } catch (e) {
    result = { id: job.id, error: (e as Error).message };
  }
  process.send!(result);
});
process.send!({ ready: true });
