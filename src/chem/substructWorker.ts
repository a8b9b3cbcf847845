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
   * The candidates' pickles end to end; `ends[i]` is where candidate i ends. An empty one
   * stands for a molecule this process keeps: the service knows which from `dropped`.
   */
  pickles: Uint8Array;
  ends: Uint32Array;
}

/** What this process answers to a MatchJob. */
export interface MatchResult {
  id: number;
  /** Indexes (into the job's candidates) of the molecules that contain the query. */
  value?: Uint32Array;
  /** Slots sent with pickles or kept before whose molecules this process does not keep now. */
  dropped?: Int32Array;
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

/** Keeps `mol` for `slot`, adding to `dropped` the slots pushed out to stay within `keep`. */
function keepMolecule(slot: number, mol: Mol, keep: number, dropped: number[]): void {
  kept.set(slot, mol);
  for (const [old, m] of kept) {
    if (kept.size <= keep) break;
    kept.delete(old);
    m.delete();
    dropped.push(old);
  }
}

const contains = (mol: Mol, query: Mol): boolean => mol.get_substruct_match(query) !== '{}';

function run(job: MatchJob): MatchResult {
  const query = queryFor(job.kind, job.text);
  const { slots, ends, pickles } = job;
  const matched: number[] = [];
  const dropped: number[] = [];
  // Kept molecules first: those parsed after them may push them out.
  for (let i = 0, start = 0; i < slots.length; start = ends[i++]!) {
    if (ends[i] !== start) continue;
    const mol = keptMolecule(slots[i]!);
    if (!mol) throw new Error(`no molecule kept for slot ${slots[i]}: the service's record of this matcher is wrong`);
    if (contains(mol, query)) matched.push(i);
  }
  for (let i = 0, start = 0; i < slots.length; start = ends[i++]!) {
    if (ends[i] === start) continue;
    const slot = slots[i]!;
    const mol = keptMolecule(slot) ?? rdkit.get_mol_from_uint8array(pickles.subarray(start, ends[i]));
    if (!mol) {
      if (job.keep > 0) dropped.push(slot);
      continue;
    }
    try {
      if (contains(mol, query)) matched.push(i);
    } finally {
      if (job.keep > 0) {
        if (!kept.has(slot)) keepMolecule(slot, mol, job.keep, dropped);
      } else mol.delete();
    }
  }
  return { id: job.id, value: Uint32Array.from(matched).sort(), dropped: Int32Array.from(dropped) };
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
