// The embedded engine behind the Store interface: Oxigraph in memory with its journal,
// snapshots and read replica (src/store/store.ts). Reads are synchronous in Oxigraph and
// answered at once; the interface is asynchronous so that a remote store fits beside it.
//
// Because they are synchronous, a job reading a dataset in chunks (await after await, each
// already resolved) would hold the event loop for the whole read: awaiting a resolved promise
// never lets a socket be served. So a read that comes more than SLICE_MS after the event loop
// last had a turn first waits for one (setImmediate), and other clients are answered between
// the chunks of a long read.
import { setImmediate as nextTurn } from 'node:timers/promises';
import type * as RDF from '@rdfjs/types';
import { GraphWriter, type Store, type StoreCapabilities, type Row, type SelectOptions, type SparqlOptions, type WriteOp } from '../api.ts';
import type { Bindable } from '../binder.ts';
import type { SparqlQuery } from '../sparqlQuery.ts';
import { TripleStore, type StoreOptions } from './store.ts';

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
  /** When the event loop last had a turn between reads (performance.now()). */
  private sliceStart = 0;
  private sliceTimer = false;

  /** `sliceMs`: the longest run of reads before the event loop gets a turn (SLICE_MS). */
  constructor(readonly engine: TripleStore, private readonly sliceMs = SLICE_MS) {
    super();
  }

  static async open(dir: string, options: StoreOptions = {}): Promise<EmbeddedStore> {
    return new EmbeddedStore(await TripleStore.open(dir, options));
  }

  commit(ops: readonly WriteOp[]): Promise<void> {
    return this.engine.commit(ops);
  }

  async graph(graph: string): Promise<RDF.Quad[]> {
    await this.turn();
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

  /**
   * Lets the event loop have a turn if reads have run for `sliceMs` since it last had one.
   * Readers that waited resume together, in one phase of the loop: each checks again, so
   * the first starts the next slice and the others wait for the turn after it, rather than
   * all reading in the same turn.
   */
  private async turn(): Promise<void> {
    for (;;) {
      const now = performance.now();
      if (!this.sliceTimer) {
        // A new run of reads: it starts now, and the next turn of the loop ends it.
        this.sliceTimer = true;
        this.sliceStart = now;
        setImmediate(() => {
          this.sliceTimer = false;
        });
        return;
      }
      if (now - this.sliceStart < this.sliceMs) return;
      await nextTurn();
    }
  }
}
