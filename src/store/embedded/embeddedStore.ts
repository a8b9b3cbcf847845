// The embedded engine behind the Store interface: Oxigraph in memory with its journal,
// snapshots and read replica (src/store/store.ts). Reads are synchronous in Oxigraph and
// answered at once; the interface is asynchronous so that a remote store fits beside it.
import type * as RDF from '@rdfjs/types';
import type { Store, Row, SelectOptions, SparqlOptions, WriteOp } from '../api.ts';
import type { Bindable } from '../binder.ts';
import type { SparqlQuery } from '../sparqlQuery.ts';
import { TripleStore, type StoreOptions } from '../store.ts';

export class EmbeddedStore implements Store {
  readonly kind = 'embedded' as const;

  constructor(readonly engine: TripleStore) {}

  static async open(dir: string, options: StoreOptions = {}): Promise<EmbeddedStore> {
    return new EmbeddedStore(await TripleStore.open(dir, options));
  }

  commit(ops: readonly WriteOp[]): Promise<void> {
    return this.engine.commit(ops);
  }

  replaceGraph(graph: string, quads: readonly RDF.Quad[]): Promise<void> {
    return this.engine.replaceGraph(graph, quads);
  }

  addToGraph(graph: string, quads: readonly RDF.Quad[]): Promise<void> {
    return this.engine.addToGraph(graph, quads);
  }

  removeFromGraph(graph: string, quads: readonly RDF.Quad[]): Promise<void> {
    return this.engine.removeFromGraph(graph, quads);
  }

  dropGraph(graph: string): Promise<void> {
    return this.engine.dropGraph(graph);
  }

  async graph(graph: string): Promise<RDF.Quad[]> {
    return this.engine.graph(graph);
  }

  async hasGraph(graph: string): Promise<boolean> {
    return this.engine.hasGraph(graph);
  }

  async match(s: RDF.Term | null, p: RDF.Term | null, o: RDF.Term | null, graph: string | null): Promise<RDF.Quad[]> {
    return this.engine.match(s, p, o, graph);
  }

  async describe(graph: string, subjects: readonly RDF.NamedNode[]): Promise<RDF.Quad[]> {
    return this.engine.describe(graph, subjects);
  }

  async select(name: string, values: Record<string, Bindable> = {}, options: SelectOptions = {}): Promise<Row[]> {
    return this.engine.select(name, values, options);
  }

  async ask(name: string, values: Record<string, Bindable> = {}): Promise<boolean> {
    return this.engine.ask(name, values);
  }

  async construct(name: string, values: Record<string, Bindable> = {}): Promise<RDF.Quad[]> {
    return this.engine.construct(name, values);
  }

  sparql(query: SparqlQuery, options: SparqlOptions = {}): Promise<string> {
    return this.engine.sparql(query, options);
  }

  close(): Promise<void> {
    return this.engine.close();
  }
}
