// Worker thread: the live store's Oxigraph. Every call into Oxigraph is synchronous and some
// take tens of milliseconds (a result chunk's load when the store's index tables grow, a
// rebuild's copy), so none runs on the event loop that answers clients (DESIGN: heavy work
// off the event loop). The main thread keeps the journal and sends each durable record here
// in commit order, and sends every read; reads go back as text, parsed there.
//
// Reads are answered as they arrive; records wait in a queue applied a slice at a time (one
// before each read, and between turns), so a read waits behind at most one slice of writes.
// A record's commit is acknowledged only once it is applied here, so a read sent after a
// commit resolved always sees it.
import { parentPort, workerData } from 'node:worker_threads';
import { getHeapStatistics } from 'node:v8';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import * as ox from 'oxigraph';
import { applyRecord, freeStore, lineCount, recordQuads, replay, type ReplayResult } from './records.ts';
import { loadWithReserve } from './memoryReserve.ts';
import type { ReplayPlan } from './layout.ts';
import type { JournalRecord } from '../writeOps.ts';
import { rowsOf, type JsonResults } from '../sparql/results.ts';
import { termJson, type TermJson } from './termJson.ts';

export type StoreRead =
  /** SELECT: SPARQL 1.1 Query Results JSON text. */
  | { kind: 'select'; text: string; union: boolean }
  | { kind: 'ask'; text: string }
  /** CONSTRUCT: N-Triples text. */
  | { kind: 'construct'; text: string }
  /** One graph's triples as N-Triples (blank node labels as stored). */
  | { kind: 'dump'; graph: string }
  /** A pattern with a stored blank node, which SPARQL cannot name: N-Quads text. */
  | { kind: 'match'; s: TermJson | null; p: TermJson | null; o: TermJson | null; graph: string | null }
  /** Any query text, for tests and small internal queries. */
  | { kind: 'query'; text: string; union: boolean; resultsFormat?: string }
  | { kind: 'size' }
  /** The thread's external memory (Oxigraph's WebAssembly memory), in bytes. */
  | { kind: 'memory' }
  | { kind: 'nquads' };

export type StoreIn =
  | { type: 'apply'; id: number; record: JournalRecord }
  | { type: 'read'; id: number; read: StoreRead }
  | { type: 'rebuild'; id: number };

export type StoreOut =
  | { type: 'ready'; replay: ReplayResult; graphs: Array<[string, number]> }
  | { type: 'done'; id: number; value: unknown }
  /** `fatal`: a WebAssembly trap, after which the store's instance cannot be trusted. */
  | { type: 'failed'; id: number; message: string; fatal: boolean };

/** Longest run of record applications before messages (reads) are taken again. */
const APPLY_SLICE_MS = 2;
/** Quads copied or applied between yields during a rebuild. */
const GENTLE_QUADS = 20_000;
const NT = 'application/n-triples';

const port = parentPort!;
let store = new ox.Store();
const queue: Array<{ id: number; record: JournalRecord }> = [];
let draining = false;
/** While a fresh store is being filled: the records applied meanwhile, applied to it last. */
let rebuilding: JournalRecord[] | undefined;

const termOf = (t: TermJson | null): ox.Term | null => (t === null ? null : (ox.fromTerm(t as unknown as ox.Term) as ox.Term));

/** The rows of a small SELECT of this thread's own, each variable's value as text. */
function rows(text: string): Array<Record<string, string>> {
  const json = JSON.parse(store.query(text, { results_format: 'application/sparql-results+json' }) as string) as JsonResults;
  return rowsOf(json).map((row) => Object.fromEntries(Object.entries(row).map(([k, t]) => [k, t.value])));
}

function read(r: StoreRead): unknown {
  switch (r.kind) {
    case 'select':
      return store.query(r.text, { use_default_graph_as_union: r.union, results_format: 'application/sparql-results+json' });
    case 'ask':
      return store.query(r.text);
    case 'construct':
      return store.query(r.text, { results_format: NT });
    case 'dump':
      return store.dump({ format: NT, from_graph_name: ox.namedNode(r.graph) });
    case 'match': {
      const g = r.graph === null ? null : ox.namedNode(r.graph);
      return store.match(termOf(r.s), termOf(r.p), termOf(r.o), g).map((q) => `${q.toString()} .\n`).join('');
    }
    case 'query': {
      const result = store.query(r.text, { use_default_graph_as_union: r.union, results_format: r.resultsFormat });
      if (!Array.isArray(result)) return result;
      return result.map((x) => (x instanceof Map
        ? { row: Object.fromEntries([...x].map(([k, v]) => [k, termJson(v)])) }
        : { quad: [termJson(x.subject), termJson(x.predicate), termJson(x.object), termJson(x.graph)] }));
    }
    case 'size':
      return store.size;
    case 'memory':
      return getHeapStatistics().external_memory;
    case 'nquads':
      return store.dump({ format: 'application/n-quads' });
  }
}

function answer(id: number, work: () => unknown): void {
  try {
    port.postMessage({ type: 'done', id, value: work() } satisfies StoreOut);
  } catch (e) {
    port.postMessage({ type: 'failed', id, message: (e as Error).message, fatal: e instanceof WebAssembly.RuntimeError } satisfies StoreOut);
  }
}

function apply(record: JournalRecord): void {
  try {
    applyRecord(store, record);
  } finally {
    // Even a record the store refused goes to a fresh store being filled: it skips it again.
    rebuilding?.push(record);
  }
}

/** Applies queued records for up to a slice. */
function applySlice(): void {
  const start = performance.now();
  while (queue.length > 0 && performance.now() - start < APPLY_SLICE_MS) {
    const { id, record } = queue.shift()!; // length > 0
    answer(id, () => apply(record));
  }
}

/** A slice of records, then the messages (reads) that came meanwhile. */
function drain(): void {
  applySlice();
  draining = queue.length > 0;
  if (draining) setImmediate(drain);
}

/**
 * Copies what the store holds into a fresh one, graph by graph (a dump holds only the quads
 * of the current version, none of the garbage Oxigraph keeps, see REBUILD_MIN in store.ts),
 * yielding between graphs so that reads and records go on meanwhile; then applies the records
 * applied meanwhile and swaps the fresh store in, in one turn, so readers see one store or
 * the other, each complete. A record that reached a graph before it was copied is applied to
 * it twice, which changes nothing: every op sets whole graphs or given quads, and the records
 * are applied in commit order, so the last op on a quad decides, as it did live.
 */
async function rebuild(): Promise<{ rebuilt: boolean; quads: number }> {
  if (rebuilding) return { rebuilt: false, quads: 0 };
  const pending: JournalRecord[] = [];
  rebuilding = pending;
  let fresh: ox.Store | undefined = new ox.Store();
  try {
    const names = rows('SELECT DISTINCT ?g WHERE { GRAPH ?g { } }').map((row) => row.g!);
    let quads = 0;
    let since = 0;
    const copy = (from: ox.NamedNode | ox.DefaultGraph) => {
      const text = store.dump({ format: NT, from_graph_name: from });
      if (text.length === 0) return;
      // In transactions, as records load (records.ts): the bulk loader's batch buffer would
      // take 160 MB of the memory the rebuild is there to give back.
      loadWithReserve(() => fresh!.load(text, { format: NT, to_graph_name: from, lenient: true }));
      const n = lineCount(text);
      quads += n;
      since += n;
    };
    copy(ox.defaultGraph());
    for (const name of names) {
      copy(ox.namedNode(name));
      if (since >= GENTLE_QUADS) {
        since = 0;
        await yieldToLoop();
      }
    }
    while (pending.length > 0) {
      const record = pending.shift()!; // length > 0
      try {
        applyRecord(fresh, record);
      } catch {
        // Refused by the live store too (its writer got an error).
      }
      since += recordQuads(record);
      if (since >= GENTLE_QUADS && pending.length > 0) {
        since = 0;
        await yieldToLoop();
      }
    }
    // No await between the last record and the swap: nothing is applied in between.
    const old = store;
    store = fresh;
    fresh = old;
    return { rebuilt: true, quads };
  } finally {
    rebuilding = undefined;
    // Freed now: every read here is synchronous, so nothing is using it.
    freeStore(fresh);
  }
}

const plan = workerData as ReplayPlan;
const replayed = replay(store, plan);
const graphs = rows('SELECT ?g (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } } GROUP BY ?g').map((row): [string, number] => [row.g!, Number(row.n)]);
port.postMessage({ type: 'ready', replay: replayed, graphs } satisfies StoreOut);

port.on('message', (msg: StoreIn) => {
  if (msg.type === 'read') {
    // Records waiting go a slice before each read: a run of reads (many clients) does not
    // hold back the commits their writers wait on, and a read still waits one slice at most.
    applySlice();
    answer(msg.id, () => read(msg.read));
  } else if (msg.type === 'apply') {
    queue.push({ id: msg.id, record: msg.record });
    if (!draining) {
      draining = true;
      setImmediate(drain);
    }
  } else {
    rebuild().then(
      (value) => port.postMessage({ type: 'done', id: msg.id, value } satisfies StoreOut),
      (e: Error) => port.postMessage({ type: 'failed', id: msg.id, message: e.message, fatal: e instanceof WebAssembly.RuntimeError } satisfies StoreOut),
    );
  }
});
