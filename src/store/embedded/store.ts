// The triple store: Oxigraph in memory in a thread of its own (storeThread.ts, the only
// importer of oxigraph besides the replica and compaction workers, DESIGN: storage rules),
// made durable by the journal on this thread, compacted into snapshots by a worker thread,
// and mirrored into a read replica for the public SPARQL endpoint. One named graph per
// resource; every write replaces, adds to, removes from or drops whole graphs, so replay
// is deterministic.
import { rmSync } from 'node:fs';
import type * as RDF from '@rdfjs/types';
import { DataFactory, Parser } from 'n3';
import { Journal } from './journal.ts';
import { isSpaceError } from '../../util/spaceError.ts';
import { GraphWriter, type Row, type SparqlOptions, type Store, type StoreCapabilities } from '../api.ts';
import { QueryFiles } from '../queries.ts';
import { termToSparql, type Bindable } from '../binder.ts';
import { rowsOf, type JsonResults } from '../sparql/results.ts';
import { describeSelect, matchSelect } from '../patterns.ts';
import { currentPlan, snapshotOpsTemp, snapshotTemp, type ReplayPlan } from './layout.ts';
import { lineCount } from './records.ts';
import { checkGraph, encodeOps, type JournalRecord, type WriteOp } from '../writeOps.ts';
import { Compactor } from './compactor.ts';
import { mkdirPrivateSync } from '../../files/privateFiles.ts';
import { GraphCache } from './graphCache.ts';
import { Replica } from './replica.ts';
import { LoopBudget } from './loopBudget.ts';
import { OxThread, ThreadCallError } from './oxThread.ts';
import type { StoreRead } from './storeThread.ts';
import { termFromJson, termJson, type TermJson } from './termJson.ts';
import { datasetOf, type SparqlQuery } from '../sparqlQuery.ts';
import { InsufficientStorage, InternalError, ServiceUnavailable } from '../../errors.ts';

export type { WriteOp } from '../writeOps.ts';

/** Subjects per describe() query. */
const SUBJECTS_PER_READ = 500;
/** Synchronous write work per turn of the event loop (loopBudget.ts): encoding commits and sending durable records. */
const WRITE_SLICE_MS = 3;
/**
 * Rest after each turn of writes, as a share of how long it held the loop (loopBudget.ts):
 * while two jobs store their results, requests get at least half of the loop.
 */
const WRITE_REST = 1;

export interface StoreOptions {
  queries?: QueryFiles;
  /** Journal records per segment: a full segment triggers a snapshot (0 = by size only). */
  snapshotEvery?: number;
  /** Journal bytes per segment (default 64 MiB). */
  segmentBytes?: number;
  /** Time limit of a public SPARQL query (default 30 s). */
  sparqlTimeoutMs?: number;
  log?: (m: unknown) => void;
  /** Predicates (by IRI prefix) the public SPARQL endpoint never shows: internal fields. */
  privatePredicatePrefixes?: readonly string[];
  /** Quads replaced or removed before a rebuild is considered (default REBUILD_MIN; tests lower it). */
  rebuildMin?: number;
  /** Synchronous write work per turn of the event loop (default WRITE_SLICE_MS; tests set 0: one step a turn). */
  writeSliceMs?: number;
}

/**
 * Oxigraph's in-memory storage keeps every quad it ever held (each with the range of versions
 * it lived in; its transaction code leaves garbage collection to do), so a store that is
 * rewritten for long grows without bound although what it holds stays the same. The quads
 * each write replaces or removes are counted (from the size of each graph, kept beside the
 * store); once they exceed what the store held when it was built (and at least REBUILD_MIN),
 * the store's thread fills a second store beside it with what it holds, graph by graph, and
 * puts it in its place (storeThread.ts); the old one's memory goes back to the WASM allocator
 * for the new one to reuse. Writes that only add (an upload) leave no garbage and cause no
 * rebuild.
 */
const REBUILD_MIN = 200_000;

/** Why each value: StoreCapabilities in api.ts. */
const CAPABILITIES: StoreCapabilities = Object.freeze({
  filesInStore: false,
  soleWriter: true,
  quadsPerCommit: 1_000,
  writesInFlight: 4,
  subjectsPerRead: 50,
  readsAhead: 1,
});

const parseNTriples = (text: string): RDF.Quad[] => new Parser({ format: 'N-Triples', blankNodePrefix: '' }).parse(text);

const jsonOf = (t: RDF.Term | null): TermJson | null => (t === null ? null : termJson(t));

/** The embedded engine behind the Store interface. */
export class TripleStore extends GraphWriter implements Store {
  readonly kind = 'embedded' as const;
  readonly capabilities = CAPABILITIES;
  private thread!: OxThread;
  /** Quads the store held when it was built. */
  private builtWith = 0;
  /** Quads in each graph, as the writes have left it. */
  private readonly graphSizes = new Map<string, number>();
  /**
   * Quads replaced or removed since the process started (garbage), and that count when the
   * store was last built: the replica measures its own worker's garbage from the same count.
   */
  private garbageEver = 0;
  private garbageAtBuild = 0;
  private rebuilt: Promise<void> | undefined;
  /** Times the store was rebuilt in this run (for tests and the log). */
  rebuilds = 0;
  private journal!: Journal;
  private compactor!: Compactor;
  private replica: Replica;
  private readonly cache = new GraphCache();
  readonly queries: QueryFiles;
  private readonly log: (m: unknown) => void;
  private readonly rebuildMin: number;
  /** Set when a journal write failed or the store's thread trapped: the store refuses writes (and, after a trap, reads) until restart. */
  private broken: Error | undefined;
  /**
   * What commits (their encoding) and the journal's hand-over of durable records take turns
   * in: the chunks of two jobs' results and a batch of records durable in one write then run
   * one turn of the event loop at a time, not all in the check phase that woke them.
   */
  private readonly writeBudget: LoopBudget;

  private constructor(readonly dir: string, options: StoreOptions) {
    super();
    this.queries = options.queries ?? new QueryFiles();
    this.log = options.log ?? ((m) => console.error(m));
    this.rebuildMin = options.rebuildMin ?? REBUILD_MIN;
    this.writeBudget = new LoopBudget(options.writeSliceMs ?? WRITE_SLICE_MS, WRITE_REST);
    this.replica = new Replica(options.sparqlTimeoutMs ?? 30_000, {
      plan: () => ({ ...this.pinnedPlan(), privatePrefixes: [...(options.privatePredicatePrefixes ?? [])] }),
      loaded: () => this.compactor.unpin(),
      wear: () => ({ garbage: this.garbageEver, held: this.builtWith }),
      log: this.log,
    });
  }

  /** Opens (or creates) the store under `dir`: last snapshot, then every later segment. */
  static async open(dir: string, options: StoreOptions = {}): Promise<TripleStore> {
    mkdirPrivateSync(dir);
    rmSync(snapshotTemp(dir), { force: true });
    rmSync(snapshotOpsTemp(dir), { force: true });
    const store = new TripleStore(dir, options);
    const plan = currentPlan(dir);
    const { thread, loaded } = await OxThread.start(plan);
    store.thread = thread;
    const read = loaded.replay;
    const segment = plan.segments.at(-1) ?? plan.snapshot ?? 0;
    store.compactor = new Compactor(dir, plan.snapshot, store.log);
    store.journal = new Journal({
      dir,
      segment,
      validLength: read.lastTorn ? read.lastValidLength : undefined,
      records: read.lastRecords,
      maxRecords: options.snapshotEvery ?? 10_000,
      maxBytes: options.segmentBytes ?? 64 * 1024 * 1024,
      onRotate: (next) => store.compactor.closedUpTo(next),
      budget: store.writeBudget,
    });
    // Segments a crash left closed but not yet compacted are taken now.
    store.compactor.closedUpTo(segment);
    for (const [graph, n] of loaded.graphs) {
      store.graphSizes.set(graph, n);
      store.builtWith += n;
    }
    return store;
  }

  /** Quads in the store. */
  size(): Promise<number> {
    return this.read({ kind: 'size' });
  }

  /** Bytes of memory the store's Oxigraph holds (its thread's WebAssembly memory), for tests and the log. */
  memory(): Promise<number> {
    return this.read({ kind: 'memory' });
  }

  /**
   * Applies `ops` atomically and durably: resolves once they are fsynced and applied.
   * Encoding waits for room in the turn's write budget, behind the commits made before it
   * (the budget serves its waiters in order).
   */
  async commit(ops: readonly WriteOp[]): Promise<void> {
    await this.writeBudget.turn();
    if (this.broken) throw new ServiceUnavailable('the store cannot write after a disk error or an engine failure; restart the service');
    const record = encodeOps(ops);
    const payload = Buffer.from(JSON.stringify(record), 'utf8');
    try {
      await this.journal.append(payload, () => this.apply(record));
    } catch (e) {
      // A full disk refuses this write only: nothing was applied, and writes work again
      // once there is room (the journal cuts what part of the record reached the file).
      if (isSpaceError(e)) throw new InsufficientStorage('the disk holding the store is full; the write was not made', { cause: e });
      // A record that the in-memory store refused (it is skipped on replay too, see
      // records.ts) fails just this write; a failed file write or a trapped thread breaks the store.
      if (e instanceof ThreadCallError && e.fatal) this.broken = e;
      if (!this.journal.failure && !(e instanceof ThreadCallError && e.fatal)) throw new InternalError('the store refused a write', { cause: e });
      this.broken ??= e as Error;
      throw new ServiceUnavailable('writing the journal failed', { cause: e });
    }
  }

  /** Sends a durable record to the store's thread, in journal order; resolves once it is applied there. */
  private async apply(record: JournalRecord): Promise<void> {
    for (const op of record) this.cache.invalidate(op.graph);
    const applied = this.thread.apply(record);
    // Even a record the store refuses goes to the replica: it applies (and skips) the same
    // ops, as a replay would.
    this.replica.apply(record);
    this.account(record);
    if (!this.rebuilt && this.garbageEver - this.garbageAtBuild > Math.max(this.rebuildMin, this.builtWith)) void this.rebuild();
    try {
      await applied;
    } finally {
      for (const op of record) this.cache.invalidate(op.graph);
    }
  }

  /** Counts the quads `record` replaces or removes, and keeps the graph sizes up to date. */
  private account(record: JournalRecord): void {
    for (const op of record) {
      const had = this.graphSizes.get(op.graph) ?? 0;
      const lines = op.op !== 'drop' && op.nt ? lineCount(op.nt) : 0;
      if (op.op === 'add') this.graphSizes.set(op.graph, had + lines);
      else if (op.op === 'replace') {
        this.garbageEver += had;
        this.graphSizes.set(op.graph, lines);
      } else if (op.op === 'remove') {
        this.garbageEver += Math.min(had, lines);
        this.graphSizes.set(op.graph, Math.max(0, had - lines));
      } else {
        this.garbageEver += had;
        this.graphSizes.delete(op.graph);
      }
    }
  }

  /** Resolves once a rebuild under way (see REBUILD_MIN) has finished. */
  async rebuildIdle(): Promise<void> {
    await this.rebuilt;
  }

  /** Has the store's thread copy what the store holds into a fresh store (storeThread.ts). */
  rebuild(): Promise<void> {
    this.rebuilt ??= this.runRebuild().finally(() => {
      this.rebuilt = undefined;
    });
    return this.rebuilt;
  }

  private async runRebuild(): Promise<void> {
    try {
      const { rebuilt, quads } = await this.thread.rebuild();
      if (rebuilt) {
        let held = 0;
        for (const n of this.graphSizes.values()) held += n;
        this.builtWith = Math.max(quads, held);
        this.rebuilds++;
      }
    } catch (e) {
      // The live store stays as it was; the next write past the mark tries again.
      if (e instanceof ThreadCallError && e.fatal) this.broken ??= e;
      this.log(e);
    } finally {
      this.garbageAtBuild = this.garbageEver;
    }
  }

  // ---- snapshots

  /** Closes the current journal segment and waits for the snapshot that covers it. */
  async snapshot(): Promise<void> {
    await this.journal.rotate();
    await this.compactor.idle();
  }

  /** Resolves once no snapshot is being written. */
  async snapshotIdle(): Promise<void> {
    await this.journal.drain();
    await this.compactor.idle();
  }

  /** Files a new replica reads: what is durable and applied right now. */
  private pinnedPlan(): ReplayPlan {
    this.compactor.pin();
    const position = this.journal.position();
    const latest = this.compactor.latest;
    const segments = Array.from({ length: position.segment - latest + 1 }, (_, i) => latest + i);
    return { dir: this.dir, snapshot: latest > 0 ? latest : null, segments, lastLength: position.length };
  }

  // ---- reads: answered by the store's thread as text, parsed here; heavy public queries go
  // through the replica. Reads come out of Oxigraph as text (N-Triples, SPARQL JSON results),
  // never as arrays of its WASM-backed term objects: wasm-bindgen's glue for those
  // (getArrayJsValueFromWasm0) was deoptimised again and again by V8 on Node 20 until the
  // process died in the deoptimizer after a 100,000-row upload, and each object needs a
  // finalizer (docs/performance.md).

  /** Every triple of graph `graph` (quads whose graph is `graph`), as plain JS terms. */
  async graph(graph: string): Promise<RDF.Quad[]> {
    const cached = this.cache.get(graph);
    if (cached) return cached.slice();
    const g = DataFactory.namedNode(checkGraph(graph));
    const token = this.cache.begin();
    let quads: RDF.Quad[] | undefined;
    try {
      // Blank node labels are kept, so they stay the same from one read to the next.
      const text = await this.read<string>({ kind: 'dump', graph });
      quads = parseNTriples(text).map((q) => DataFactory.quad(q.subject, q.predicate, q.object, g));
    } finally {
      this.cache.fill(graph, token, quads);
    }
    return quads.slice();
  }

  /** True when graph() answers `graph` from the graphs kept in memory, without reading the store. */
  isCached(graph: string): boolean {
    return this.cache.get(graph) !== undefined;
  }

  /** True when graph `graph` holds a triple (an ASK: no triple is copied out of the store). */
  async hasGraph(graph: string): Promise<boolean> {
    if ((this.cache.get(graph)?.length ?? 0) > 0) return true;
    return this.ask('graph-exists', { graph: DataFactory.namedNode(checkGraph(graph)) });
  }

  /** Triples matching a pattern in one graph (or all graphs when graph is null). */
  async match(s: RDF.Term | null, p: RDF.Term | null, o: RDF.Term | null, graph: string | null): Promise<RDF.Quad[]> {
    if (s?.termType === 'BlankNode' || o?.termType === 'BlankNode') {
      // SPARQL has no syntax for a stored blank node (SPARQL 1.1 Query §4.1.4): such a
      // pattern (never a large read) is matched by Oxigraph directly.
      const text = await this.read<string>({ kind: 'match', s: jsonOf(s), p: jsonOf(p), o: jsonOf(o), graph: graph === null ? null : checkGraph(graph) });
      return new Parser({ format: 'N-Quads', blankNodePrefix: '' }).parse(text);
    }
    const g = graph === null ? null : DataFactory.namedNode(checkGraph(graph));
    const rows = await this.rows(matchSelect(s, p, o, g, termToSparql).query);
    const out = new Array<RDF.Quad>(rows.length);
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i]!;
      out[i] = DataFactory.quad((s ?? r.s) as RDF.Quad_Subject, (p ?? r.p) as RDF.Quad_Predicate, (o ?? r.o) as RDF.Quad_Object, (g ?? r.g) as RDF.Quad_Graph);
    }
    return out;
  }

  /** Every triple of graph `graph` whose subject is one of `subjects`, in one query per SUBJECTS_PER_READ. */
  async describe(graph: string, subjects: readonly RDF.NamedNode[]): Promise<RDF.Quad[]> {
    const g = DataFactory.namedNode(checkGraph(graph));
    const out: RDF.Quad[] = [];
    for (let i = 0; i < subjects.length; i += SUBJECTS_PER_READ) {
      const rows = await this.rows(describeSelect(g, subjects.slice(i, i + SUBJECTS_PER_READ), termToSparql));
      for (const r of rows) out.push(DataFactory.quad(r.s as RDF.Quad_Subject, r.p as RDF.Quad_Predicate, r.o as RDF.Quad_Object, g));
    }
    return out;
  }

  /** Runs SELECT query file `name` with `values` bound. */
  select(name: string, values: Record<string, Bindable> = {}, options: { union?: boolean } = {}): Promise<Row[]> {
    return this.rows(this.queries.text(name, values), options.union ?? false, name);
  }

  /** A SELECT answered as SPARQL 1.1 Query Results JSON, read into plain JS terms. */
  private async rows(query: string, union = false, name = 'query'): Promise<Row[]> {
    const text = await this.read<string>({ kind: 'select', text: query, union });
    if (typeof text !== 'string') throw new Error(`${name} is not a SELECT query`);
    const json = JSON.parse(text) as JsonResults;
    if (json.results === undefined) throw new Error(`${name} is not a SELECT query`);
    return rowsOf(json);
  }

  async ask(name: string, values: Record<string, Bindable> = {}): Promise<boolean> {
    const result = await this.read<unknown>({ kind: 'ask', text: this.queries.text(name, values) });
    if (typeof result !== 'boolean') throw new Error(`${name} is not an ASK query`);
    return result;
  }

  async construct(name: string, values: Record<string, Bindable> = {}): Promise<RDF.Quad[]> {
    const result = await this.read<unknown>({ kind: 'construct', text: this.queries.text(name, values) });
    if (typeof result !== 'string') throw new Error(`${name} is not a CONSTRUCT query`);
    return parseNTriples(result);
  }

  /**
   * Runs a public SPARQL query (parsed by parseSparqlQuery) on the read replica, off the
   * event loop and within the time limit; resolves with the serialised result. `graphs`
   * restricts the queryable graphs (for access control).
   */
  sparql(query: SparqlQuery, options: SparqlOptions = {}): Promise<string> {
    return this.replica.query({
      text: query.text,
      kind: query.kind,
      baseIri: query.baseIri,
      dataset: datasetOf(query, options),
      resultsFormat: options.resultsFormat,
      syntax: options.syntax,
    }, options.signal);
  }

  /**
   * Runs a SPARQL query text in the store's thread, for small internal queries and tests.
   * The public endpoint must not use this (DESIGN: heavy reads run in the replica, with a limit).
   */
  async queryText(text: string, options: { union?: boolean; resultsFormat?: string } = {}): Promise<boolean | Row[] | RDF.Quad[] | string> {
    type Answer = boolean | string | Array<{ row?: Record<string, TermJson>; quad?: TermJson[] }>;
    const result = await this.read<Answer>({ kind: 'query', text, union: options.union ?? false, resultsFormat: options.resultsFormat });
    if (!Array.isArray(result)) return result;
    if (result.every((x) => x.row)) return result.map((x) => Object.fromEntries(Object.entries(x.row!).map(([k, t]) => [k, termFromJson(t)])));
    return result.map((x) => {
      const [s, p, o, g] = x.quad!.map(termFromJson);
      return DataFactory.quad(s as RDF.Quad_Subject, p as RDF.Quad_Predicate, o as RDF.Quad_Object, g as RDF.Quad_Graph);
    });
  }

  /** A read in the store's thread; once that thread trapped or died, a 503 (its memory cannot be trusted). */
  private async read<T>(read: StoreRead): Promise<T> {
    try {
      return await this.thread.read<T>(read);
    } catch (e) {
      if (!(e instanceof ThreadCallError && e.fatal)) throw e;
      this.broken ??= e;
      throw new ServiceUnavailable('the store\'s engine failed; restart the service', { cause: e });
    }
  }

  /** N-Quads of the whole store. */
  dumpNQuads(): Promise<string> {
    return this.read({ kind: 'nquads' });
  }

  async close(): Promise<void> {
    await this.rebuilt;
    await this.replica.close();
    await this.journal.close();
    await this.compactor.close();
    await this.thread.close();
  }
}
