// The embedded engine behind the Store interface: Oxigraph in memory with its journal,
// snapshots and read replica (src/store/store.ts). Reads are synchronous in Oxigraph and
// answered at once; the interface is asynchronous so that a remote store fits beside it.
//
// Because they are synchronous, a job reading a dataset in chunks (await after await, each
// already resolved) would hold the event loop for the whole read: awaiting a resolved promise
// never lets a socket be served. So every read first asks for room in a budget of reads per
// turn of the event loop (loopBudget.ts), and other clients are answered between the chunks
// of a long read. Writes have a budget of their own (store.ts): a client's read never waits
// behind the chunks of a job's result.
import type * as RDF from '@rdfjs/types';
import { GraphWriter, type Store, type StoreCapabilities, type Row, type SelectOptions, type SparqlOptions, type WriteOp } from '../api.ts';
import type { Bindable } from '../binder.ts';
import type { SparqlQuery } from '../sparqlQuery.ts';
import { TripleStore, type StoreOptions } from './store.ts';
import { LoopBudget } from './loopBudget.ts';

/** Longest run of reads before the event loop gets a turn. */
const SLICE_MS = 2;

/** Why each value: StoreCapabilities in api.ts; in short, everything here runs on this event loop. */
const CAPABILITIES: StoreCapabilities = Object.freeze({
  filesInStore: false,
  soleWriter: true,
  quadsPerCommit: 1_000,
  writesInFlight: 4,
  subjectsPerRead: 50,
  readsAhead: 0,
});

export class EmbeddedStore extends GraphWriter implements Store {
  readonly kind = 'embedded' as const;
  readonly capabilities = CAPABILITIES;
  private readonly budget: LoopBudget;

  /** `sliceMs`: the longest run of reads before the event loop gets a turn (SLICE_MS). */
  constructor(readonly engine: TripleStore, sliceMs = SLICE_MS) {
    super();
    this.budget = new LoopBudget(sliceMs);
  }

  static async open(dir: string, options: StoreOptions = {}): Promise<EmbeddedStore> {
    return new EmbeddedStore(await TripleStore.open(dir, options));
  }

  commit(ops: readonly WriteOp[]): Promise<void> {
    return this.engine.commit(ops);
  }

  async graph(graph: string): Promise<RDF.Quad[]> {
    // A graph kept in memory is copied in microseconds: it does not wait behind a job's reads.
    if (!this.engine.isCached(graph)) await this.turn();
    return this.engine.graph(graph);
  }

  async hasGraph(graph: string): Promise<boolean> {
    await this.turn();
    return this.engine.hasGraph(graph);
  }

  async match(s: RDF.Term | null, p: RDF.Term | null, o: RDF.Term | null, graph: string | null): Promise<RDF.Quad[]> {
    await this.turn();
    return this.engine.match(s, p, o, graph);
  }

  async describe(graph: string, subjects: readonly RDF.NamedNode[]): Promise<RDF.Quad[]> {
    await this.turn();
    return this.engine.describe(graph, subjects);
  }

  async select(name: string, values: Record<string, Bindable> = {}, options: SelectOptions = {}): Promise<Row[]> {
    await this.turn();
    return this.engine.select(name, values, options);
  }

  async ask(name: string, values: Record<string, Bindable> = {}): Promise<boolean> {
    await this.turn();
    return this.engine.ask(name, values);
  }

  async construct(name: string, values: Record<string, Bindable> = {}): Promise<RDF.Quad[]> {
    await this.turn();
    return this.engine.construct(name, values);
  }

  sparql(query: SparqlQuery, options: SparqlOptions = {}): Promise<string> {
    return this.engine.sparql(query, options);
  }

  close(): Promise<void> {
    return this.engine.close();
  }

  private turn(): Promise<void> {
    return this.budget.turn();
  }
}
