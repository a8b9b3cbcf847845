// Child process of the substructure search: exact RDKit matching runs here so
// a pathological SMARTS never blocks the event loop, and the service can kill it when a
// search exceeds its time limit. A process, not a worker thread: on Node 20 a thread
// terminated while V8 tiers up RDKit's WASM leaves sibling threads that share the compiled
// module deadlocked. Queries arrive already validated by src/chem/smarts.ts.
import process from 'node:process';
import initRDKitModule, { type Mol } from '@rdkit/rdkit';
import { substructureQuery, type QueryKind } from './substructQuery.ts';

/** What src/search/matcherPool.ts sends. */
export interface MatchJob {
  id: number;
  kind: QueryKind;
  text: string;
  /** Most molecules kept parsed between jobs, by slot; 0 parses each candidate for each job. */
  keep: number;
  /** The candidates' slots (a matcher may keep a slot's molecule parsed: slots are never reused). */
  slots: Int32Array;
  /**
   * The candidates' pickles end to end; `ends[i]` is where candidate i ends. Without them
   * only candidates whose molecule the matcher keeps are matched, the others answered missing.
   */
  pickles?: Uint8Array;
  ends?: Uint32Array;
}

/** What this process answers to a MatchJob. */
export interface MatchResult {
  id: number;
  /** Indexes (into the job's candidates) of the molecules that contain the query. */
  value?: Uint32Array;
  /** Indexes of the candidates a job without pickles could not match (their molecules not kept). */
  missing?: Uint32Array;
  error?: string;
}

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
 * Molecules parsed by earlier jobs, by slot, the least recently used first. A slot's
 * molecule never changes (a replaced compound gets a new slot), so a kept one stays right.
 */
const kept = new Map<number, Mol>();

/** The molecule kept for `slot`, now the most recently used. */
function keptMolecule(slot: number): Mol | undefined {
  const known = kept.get(slot);
  if (known) {
    kept.delete(slot);
    kept.set(slot, known);
  }
  return known;
}

/** The candidate's molecule: kept, or read from its pickle (and kept when `keep` allows). */
function moleculeOf(job: MatchJob, i: number, start: number): { mol: Mol | null; owned: boolean } {
  const known = keptMolecule(job.slots[i]!);
  if (known) return { mol: known, owned: false };
  const slot = job.slots[i]!;
  const end = job.ends![i]!;
  // An empty pickle stands for a compound removed meanwhile.
  const mol = end > start ? rdkit.get_mol_from_uint8array(job.pickles!.subarray(start, end)) : null;
  if (!mol || job.keep <= 0) return { mol, owned: true };
  kept.set(slot, mol);
  for (const [old, m] of kept) {
    if (kept.size <= job.keep) break;
    kept.delete(old);
    m.delete();
  }
  return { mol, owned: false };
}

function run(job: MatchJob): MatchResult {
  const query = queryFor(job.kind, job.text);
  const matched: number[] = [];
  if (!job.pickles) {
    const missing: number[] = [];
    for (let i = 0; i < job.slots.length; i++) {
      const mol = keptMolecule(job.slots[i]!);
      if (!mol) missing.push(i);
      else if (mol.get_substruct_match(query) !== '{}') matched.push(i);
    }
    return { id: job.id, value: Uint32Array.from(matched), missing: Uint32Array.from(missing) };
  }
  const ends = job.ends!;
  let start = 0;
  for (let i = 0; i < ends.length; i++) {
    const { mol, owned } = moleculeOf(job, i, start);
    start = ends[i]!;
    if (!mol) continue;
    try {
      if (mol.get_substruct_match(query) !== '{}') matched.push(i);
    } finally {
      if (owned) mol.delete();
    }
  }
  return { id: job.id, value: Uint32Array.from(matched) };
}

process.on('message', (job: MatchJob) => {
  let result: MatchResult;
  try {
    result = run(job);
  } catch (e) {
    result = { id: job.id, error: (e as Error).message };
  }
  process.send!(result);
});
process.send!({ ready: true });
