// The triple store: Oxigraph in memory (the only importer of oxigraph, DESIGN: storage
// rules), made durable by the journal, compacted into snapshots by a worker thread, and
// mirrored into a read replica for the public SPARQL endpoint. One named graph per
// resource; every write replaces, adds to, removes from or drops whole graphs, so replay
// is deterministic.
import { rmSync } from 'node:fs';
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import * as ox from 'oxigraph';
import type * as RDF from '@rdfjs/types';
import { DataFactory, Parser } from 'n3';
import { Journal } from './journal.ts';
import { isSpaceError } from '../../util/spaceError.ts';
import { bound, GraphWriter } from '../api.ts';
import { QueryFiles } from '../queries.ts';
import { termToSparql, type Bindable } from '../binder.ts';
import { rowsOf, type JsonResults } from '../sparql/results.ts';
import { describeSelect, matchSelect } from '../patterns.ts';
import { currentPlan, snapshotOpsTemp, snapshotTemp, type ReplayPlan } from './layout.ts';
import { loadWithReserve } from './memoryReserve.ts';
import { applyRecord, lineCount, recordQuads, replay } from './records.ts';
import { checkGraph, encodeOps, type JournalRecord, type WriteOp } from '../writeOps.ts';
import { Compactor } from './compactor.ts';
import { mkdirPrivateSync } from '../../files/privateFiles.ts';
import { GraphCache } from './graphCache.ts';
import { Replica } from './replica.ts';
import { LoopBudget } from './loopBudget.ts';
import { datasetOf, type DatasetRequest, type SparqlQuery } from '../sparqlQuery.ts';
import type { RdfSyntax } from '../../rdf/formats.ts';
import { InsufficientStorage, InternalError, ServiceUnavailable } from '../../errors.ts';

export type { WriteOp } from '../writeOps.ts';

export type Row = Record<string, RDF.Term>;

/** Subjects per describe() query. */
const SUBJECTS_PER_READ = 500;
/** Synchronous write work per turn of the event loop (loopBudget.ts): encoding commits and applying durable records. */
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

/** How the public endpoint wants a query answered. */
export interface SparqlOptions extends DatasetRequest {
  /** SELECT/ASK: a SPARQL results media type. */
  resultsFormat?: string;
  /** CONSTRUCT/DESCRIBE: the RDF syntax to write. */
  syntax?: RdfSyntax;
  /** Aborts the query (e.g. the client went away). */
  signal?: AbortSignal;
}

/**
 * Oxigraph's in-memory storage keeps every quad it ever held (each with the range of versions
 * it lived in; its transaction code leaves garbage collection to do), so a store that is
 * rewritten for long grows without bound although what it holds stays the same. The quads
 * each write replaces or removes are counted (from the size of each graph, kept beside the
 * store); once they exceed what the store held when it was built (and at least REBUILD_MIN), a
 * second store is filled beside it with what it holds, graph by graph, and takes its place;
 * the old one's memory goes back to the WASM allocator for the new one to reuse. Writes that
 * only add (an upload) leave no garbage and cause no rebuild.
 */
const REBUILD_MIN = 200_000;
/** Quads copied or applied between yields to the event loop during a rebuild. */
const GENTLE_QUADS = 20_000;

export class TripleStore extends GraphWriter {
  private ox = new ox.Store();
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
  /** While a fresh store is being filled: the records committed meanwhile, applied to it last. */
  private rebuilding: JournalRecord[] | undefined;
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
  /** Set when a journal write failed: the store refuses writes until restart. */
  private broken: Error | undefined;
  /**
   * What commits (their encoding) and the journal's application of durable records take turns
   * in: the chunks of two jobs' results and a batch of records durable in one write then run
   * one turn of the event loop at a time, not all in the check phase that woke them. Reads
   * have a budget of their own (embeddedStore.ts), so a client's GET never waits behind them.
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
    const read = replay(store.ox, plan);
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
    store.countGraphs();
    return store;
  }

  get size(): number {
    return this.ox.size;
  }

  /**
   * Applies `ops` atomically and durably: resolves once they are fsynced and visible.
   * Encoding waits for room in the turn's write budget, behind the commits made before it
   * (the budget serves its waiters in order).
   */
  async commit(ops: readonly WriteOp[]): Promise<void> {
    await this.writeBudget.turn();
    if (this.broken) throw new ServiceUnavailable('the store cannot write after a disk error; restart the service');
    const record = encodeOps(ops);
    const payload = Buffer.from(JSON.stringify(record), 'utf8');
    try {
      await this.journal.append(payload, () => this.apply(record));
    } catch (e) {
      // A full disk refuses this write only: nothing was applied, and writes work again
      // once there is room (the journal cuts what part of the record reached the file).
      if (isSpaceError(e)) throw new InsufficientStorage('the disk holding the store is full; the write was not made', { cause: e });
      // Only a failed file write breaks the store; a record that the in-memory store
      // refused (it is skipped on replay too, see records.ts) fails just this write.
      if (!this.journal.failure) throw new InternalError('the store refused a write', { cause: e });
      this.broken = e as Error;
      throw new ServiceUnavailable('writing the journal failed', { cause: e });
    }
  }

  private apply(record: JournalRecord): void {
    for (const op of record) this.cache.invalidate(op.graph);
    try {
      applyRecord(this.ox, record);
    } finally {
      // Even a record the store refused goes to the replica: it applies (and skips) the
      // same ops, as a replay would.
      this.replica.apply(record);
      this.rebuilding?.push(record);
      this.account(record);
      if (!this.rebuilding && this.garbageEver - this.garbageAtBuild > Math.max(this.rebuildMin, this.builtWith)) this.rebuilt = this.rebuild();
    }
  }

  /** The size of every graph, read once at start (what the garbage of later writes is counted from). */
  private countGraphs(): void {
    let total = 0;
    for (const row of this.rows('SELECT ?g (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } } GROUP BY ?g')) {
      const n = Number(bound(row, 'n'));
      this.graphSizes.set(bound(row, 'g'), n);
      total += n;
    }
    this.builtWith = total;
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

  /**
   * Copies what the live store holds into a fresh one, graph by graph (a dump holds only the
   * quads of the current version, none of the garbage), yielding to the event loop between
   * graphs; then applies the records committed meanwhile, and puts the fresh store in place of
   * the live one in the same turn of the event loop as the last of them, so readers see one
   * store or the other, each complete. A record that reached a graph before it was copied is
   * applied to it twice, which changes nothing: every op sets whole graphs or given quads, and
   * the records are applied in commit order, so the last op on a quad decides, as it did live.
   */
  async rebuild(): Promise<void> {
    if (this.rebuilding) return this.rebuilt;
    const pending: JournalRecord[] = [];
    this.rebuilding = pending;
    let fresh: ox.Store | undefined = new ox.Store();
    try {
      const names = this.rows('SELECT DISTINCT ?g WHERE { GRAPH ?g { } }').map((row) => bound(row, 'g'));
      let quads = 0;
      let since = 0;
      const copy = (from: ox.NamedNode | ox.DefaultGraph) => {
        const text = this.ox.dump({ format: 'application/n-triples', from_graph_name: from });
        if (text.length === 0) return;
        // In transactions, as records load (records.ts): the bulk loader's batch buffer would
        // take 160 MB of the memory the rebuild is there to give back.
        loadWithReserve(() => fresh!.load(text, { format: 'application/n-triples', to_graph_name: from, lenient: true }));
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
      // No await between the last record and the swap: nothing is committed in between.
      const old = this.ox;
      this.ox = fresh;
      fresh = old;
      let held = 0;
      for (const n of this.graphSizes.values()) held += n;
      this.builtWith = Math.max(quads, held);
      this.rebuilds++;
    } catch (e) {
      // The live store stays as it was; the next write past the mark tries again.
      this.log(e);
    } finally {
      this.garbageAtBuild = this.garbageEver;
      this.rebuilding = undefined;
      // Freed now rather than at some later garbage collection: every read of the store is
      // synchronous, so nothing is using it (wasm-bindgen's free(), missing from the typings).
      (fresh as unknown as { free(): void }).free();
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

  // ---- reads: synchronous and cheap; heavy public queries go through the replica.

  /** Every triple of graph `graph` (quads whose graph is `graph`), as plain JS terms. */
  graph(graph: string): RDF.Quad[] {
    const cached = this.cache.get(graph);
    if (cached) return cached.slice();
    const g = DataFactory.namedNode(checkGraph(graph));
    // Dumping and parsing N-Triples is cheaper than reading Oxigraph's terms one by one;
    // blank node labels are kept, so they stay the same from one read to the next.
    const text = this.ox.dump({ format: 'application/n-triples', from_graph_name: ox.namedNode(graph) });
    const quads = new Parser({ format: 'N-Triples', blankNodePrefix: '' }).parse(text).map((q) => DataFactory.quad(q.subject, q.predicate, q.object, g));
    this.cache.set(graph, quads);
    return quads.slice();
  }

  /** True when graph() answers `graph` from the graphs kept in memory, without reading the store. */
  isCached(graph: string): boolean {
    return this.cache.get(graph) !== undefined;
  }

  /** True when graph `graph` holds a triple (an ASK: no triple is copied out of the store). */
  hasGraph(graph: string): boolean {
    if ((this.cache.get(graph)?.length ?? 0) > 0) return true;
    return this.ask('graph-exists', { graph: DataFactory.namedNode(checkGraph(graph)) });
  }

  // Reads come out of Oxigraph as SPARQL JSON results text, parsed into plain n3 terms,
  // never as arrays of Oxigraph's WASM-backed term objects. Such arrays are built by
  // wasm-bindgen's glue (getArrayJsValueFromWasm0), which V8 on Node 20 optimised and
  // deoptimised again and again on a dataset's CSV stream (one entry list of 100,000 links,
  // then one read per 500 entries): after a 100,000-row upload the process died in V8's
  // deoptimizer (fatal "unreachable code" in Deoptimizer::DoComputeBuiltinContinuation),
  // with or without --no-turbo-inline-array-builtins. The WASM objects also need finalizers,
  // so collecting millions of them took about half the CPU time of a large stream
  // (docs/performance.md). Text crosses the boundary once per read, as in graph() above.

  /** Triples matching a pattern in one graph (or all graphs when graph is null). */
  match(s: RDF.Term | null, p: RDF.Term | null, o: RDF.Term | null, graph: string | null): RDF.Quad[] {
    if (s?.termType === 'BlankNode' || o?.termType === 'BlankNode') {
      // SPARQL has no syntax for a stored blank node (SPARQL 1.1 Query §4.1.4): such a
      // pattern (never a large read) is matched by Oxigraph directly.
      const t = (x: RDF.Term | null) => (x === null ? null : (ox.fromTerm(x) as ox.Term));
      return this.ox.match(t(s), t(p), t(o), graph === null ? null : ox.namedNode(checkGraph(graph))) as unknown as RDF.Quad[];
    }
    const g = graph === null ? null : DataFactory.namedNode(checkGraph(graph));
    const rows = this.rows(matchSelect(s, p, o, g, termToSparql).query);
    const out = new Array<RDF.Quad>(rows.length);
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i]!;
      out[i] = DataFactory.quad((s ?? r.s) as RDF.Quad_Subject, (p ?? r.p) as RDF.Quad_Predicate, (o ?? r.o) as RDF.Quad_Object, (g ?? r.g) as RDF.Quad_Graph);
    }
    return out;
  }

  /** Every triple of graph `graph` whose subject is one of `subjects`, in one query. */
  describe(graph: string, subjects: readonly RDF.NamedNode[]): RDF.Quad[] {
    const g = DataFactory.namedNode(checkGraph(graph));
    const out: RDF.Quad[] = [];
    for (let i = 0; i < subjects.length; i += SUBJECTS_PER_READ) {
      const rows = this.rows(describeSelect(g, subjects.slice(i, i + SUBJECTS_PER_READ), termToSparql));
      for (const r of rows) out.push(DataFactory.quad(r.s as RDF.Quad_Subject, r.p as RDF.Quad_Predicate, r.o as RDF.Quad_Object, g));
    }
    return out;
  }

  /** Runs SELECT query file `name` with `values` bound. */
  select(name: string, values: Record<string, Bindable> = {}, options: { union?: boolean } = {}): Row[] {
    return this.rows(this.queries.text(name, values), options.union ?? false, name);
  }

  /** A SELECT answered as SPARQL 1.1 Query Results JSON, read into plain JS terms. */
  private rows(query: string, union = false, name = 'query'): Row[] {
    const text = this.ox.query(query, { use_default_graph_as_union: union, results_format: 'application/sparql-results+json' });
    if (typeof text !== 'string') throw new Error(`${name} is not a SELECT query`);
    const json = JSON.parse(text) as JsonResults;
    if (json.results === undefined) throw new Error(`${name} is not a SELECT query`);
    return rowsOf(json);
  }

  ask(name: string, values: Record<string, Bindable> = {}): boolean {
    const result = this.ox.query(this.queries.text(name, values));
    if (typeof result !== 'boolean') throw new Error(`${name} is not an ASK query`);
    return result;
  }

  construct(name: string, values: Record<string, Bindable> = {}): RDF.Quad[] {
    const result = this.ox.query(this.queries.text(name, values));
    if (!Array.isArray(result)) throw new Error(`${name} is not a CONSTRUCT query`);
    return result as unknown as RDF.Quad[];
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
   * Runs a SPARQL query text on the main thread, for small internal queries and tests.
   * The public endpoint must not use this (DESIGN: heavy reads run off the event loop).
   */
  queryText(text: string, options: { union?: boolean; resultsFormat?: string } = {}): boolean | Row[] | RDF.Quad[] | string {
    const result = this.ox.query(text, { use_default_graph_as_union: options.union ?? false, results_format: options.resultsFormat });
    if (Array.isArray(result) && result.length > 0 && result[0] instanceof Map) {
      return (result as Map<string, RDF.Term>[]).map((m) => Object.fromEntries(m) as Row);
    }
    return result as boolean | RDF.Quad[] | string;
  }

  /** N-Quads of the whole store. */
  dumpNQuads(): string {
    return this.ox.dump({ format: 'application/n-quads' });
  }

  async close(): Promise<void> {
    await this.rebuilt;
    await this.replica.close();
    await this.journal.close();
    await this.compactor.close();
  }
}
