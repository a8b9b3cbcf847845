// What the service needs from a triple store (DESIGN: storage rules), as one interface with
// two implementations: the embedded Oxigraph store with its journal (the default) and any
// SPARQL 1.1 Protocol store (src/store/sparql/). Every read is asynchronous, so a store on
// the other side of a network fits behind it. One named graph per resource; every write
// replaces, adds to, removes from or drops whole graphs, atomically.
import type * as RDF from '@rdfjs/types';
import type { Bindable } from './binder.ts';
import type { WriteOp } from './writeOps.ts';
import type { SparqlQuery, DatasetRequest } from './sparqlQuery.ts';
import type { RdfSyntax } from '../rdf/formats.ts';
import { InternalError } from '../errors.ts';

export type { WriteOp } from './writeOps.ts';

export type Row = Record<string, RDF.Term>;

/**
 * The value of `?name` in a SELECT result row, for a variable its query binds on every row
 * (outside OPTIONAL): an unbound one means the query file and its reader disagree.
 */
export function bound(row: Row, name: string): string {
  const term = row[name];
  if (term === undefined) throw new InternalError(`SELECT result row without ?${name}`);
  return term.value;
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

export interface SelectOptions {
  union?: boolean;
}

/**
 * The one-graph writes of the Store interface, each a commit of one operation: written once
 * here for every engine, which then has only `commit` to provide.
 */
export abstract class GraphWriter {
  /** Applies `ops` atomically and durably: resolves once they are stored and visible. */
  abstract commit(ops: readonly WriteOp[]): Promise<void>;

  replaceGraph(graph: string, quads: readonly RDF.Quad[]): Promise<void> {
    return this.commit([{ op: 'replace', graph, quads }]);
  }

  addToGraph(graph: string, quads: readonly RDF.Quad[]): Promise<void> {
    return this.commit([{ op: 'add', graph, quads }]);
  }

  removeFromGraph(graph: string, quads: readonly RDF.Quad[]): Promise<void> {
    return this.commit([{ op: 'remove', graph, quads }]);
  }

  dropGraph(graph: string): Promise<void> {
    return this.commit([{ op: 'drop', graph }]);
  }
}

/**
 * What the engine behind a Store is like, stated once here so that domain code asks what it
 * needs (may I read ahead? where do shared files go?) rather than which engine it has. Each
 * field names a property of the engine and the values the two engines give it.
 */
export interface StoreCapabilities {
  /**
   * True when the store is shared by every process of the service (web and job workers,
   * possibly on other machines) and DATA_DIR is not: files that every process reads
   * (uploaded bodies, structure files, models) are then kept in the store as graphs.
   * Remote: true. Embedded: false (one process owns the store and DATA_DIR beside it).
   */
  readonly filesInStore: boolean;
  /**
   * True when every write to the store goes through this object, so a count or cache kept
   * beside it in this process is never behind. Embedded: true. Remote: false (other
   * processes write too, and this one hears of it a moment later, changeFeed.ts).
   */
  readonly soleWriter: boolean;
  /**
   * Triples worth putting in one commit of a long write. Embedded: about 1,000, since a
   * commit is applied in one synchronous call in the store's thread (1,000 literal values
   * take about 3 ms in a store of a million triples), and reads wait behind at most one.
   * Remote: Infinity, since a commit is an HTTP request that holds no event loop here; the
   * writer's own cap applies.
   */
  readonly quadsPerCommit: number;
  /**
   * Commits a long write may have in flight at once. Embedded: a few, which then share the
   * journal's fsyncs (commitPipeline.ts). Remote: 1, since writes go one at a time anyway
   * and each is an update request the store runs as its own transaction.
   */
  readonly writesInFlight: number;
  /**
   * Subjects worth asking for in one describe() of a long read. Remote: SUBJECTS_PER_READ,
   * the store's own request size, so each chunk is one request. Embedded: a few milliseconds of
   * reading in the store's thread, and of parsing its answer on this event loop.
   */
  readonly subjectsPerRead: number;
  /**
   * Reads worth starting ahead of the one being consumed. Remote: 2, since the store answers
   * each on one of its own threads (Virtuoso answered 4,000 entries 1.5 to 1.7 times as fast
   * on two cores with two more in flight). Embedded: 1, since its thread answers the next
   * read while this event loop parses the last.
   */
  readonly readsAhead: number;
}

export interface Store {
  /** Which engine this is, for the store's own code, logs and tests; domain code asks `capabilities`. */
  readonly kind: 'embedded' | 'sparql';
  readonly capabilities: StoreCapabilities;
  /** Applies `ops` atomically and durably: resolves once they are stored and visible. */
  commit(ops: readonly WriteOp[]): Promise<void>;
  replaceGraph(graph: string, quads: readonly RDF.Quad[]): Promise<void>;
  addToGraph(graph: string, quads: readonly RDF.Quad[]): Promise<void>;
  removeFromGraph(graph: string, quads: readonly RDF.Quad[]): Promise<void>;
  dropGraph(graph: string): Promise<void>;

  /** Every triple of graph `graph`, as quads in that graph. */
  graph(graph: string): Promise<RDF.Quad[]>;
  /** True when graph `graph` holds a triple. */
  hasGraph(graph: string): Promise<boolean>;
  /** Triples matching a pattern in one graph (or in all graphs when `graph` is null). */
  match(s: RDF.Term | null, p: RDF.Term | null, o: RDF.Term | null, graph: string | null): Promise<RDF.Quad[]>;
  /** Every triple of graph `graph` whose subject is one of `subjects`: one read for many rows. */
  describe(graph: string, subjects: readonly RDF.NamedNode[]): Promise<RDF.Quad[]>;
  /**
   * Runs SELECT query file `name` (queries/NAME.rq) with `values` bound. `union`: the default
   * graph is the union of every graph, for property paths that cross graphs (rdfs:subClassOf*).
   */
  select(name: string, values?: Record<string, Bindable>, options?: SelectOptions): Promise<Row[]>;
  ask(name: string, values?: Record<string, Bindable>): Promise<boolean>;
  construct(name: string, values?: Record<string, Bindable>): Promise<RDF.Quad[]>;

  /**
   * Runs a public SPARQL query (parsed by parseSparqlQuery) within the time limit, off the
   * event loop, and resolves with the serialised result.
   */
  sparql(query: SparqlQuery, options?: SparqlOptions): Promise<string>;
  close(): Promise<void>;
}
