// The triple store: Oxigraph in memory (the only importer of oxigraph, DESIGN: storage
// rules), made durable by the journal. One named graph per resource; every write
// replaces, adds to, removes from or drops whole graphs, so replay is deterministic.
import { mkdirSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import * as ox from 'oxigraph';
import { Writer, DataFactory, Parser } from 'n3';
import type * as RDF from '@rdfjs/types';
import { Journal, readJournal } from './journal.ts';
import { QueryFiles } from './queries.ts';
import { isValidIri, type Bindable } from './binder.ts';
import { ServiceUnavailable } from '../http/errors.ts';

export type WriteOp =
  | { op: 'replace'; graph: string; quads: readonly RDF.Quad[] }
  | { op: 'add'; graph: string; quads: readonly RDF.Quad[] }
  | { op: 'remove'; graph: string; quads: readonly RDF.Quad[] }
  | { op: 'drop'; graph: string };

/** The journal form of a write: triples as N-Triples text. */
interface JournalOp {
  op: WriteOp['op'];
  graph: string;
  nt?: string;
}

export type Row = Record<string, RDF.Term>;

export interface StoreOptions {
  queries?: QueryFiles;
}

const NT = 'application/n-triples';

function checkTerm(t: RDF.Term): void {
  if (t.termType === 'NamedNode' && !isValidIri(t.value)) throw new Error(`invalid IRI in write: ${JSON.stringify(t.value)}`);
  if (t.termType === 'Literal' && !isValidIri(t.datatype.value)) throw new Error(`invalid datatype IRI: ${t.datatype.value}`);
}

/** N-Triples of `quads` (their graph is ignored), after checking every IRI. */
export function toNTriples(quads: readonly RDF.Quad[]): string {
  for (const q of quads) {
    checkTerm(q.subject);
    checkTerm(q.predicate);
    checkTerm(q.object);
  }
  const w = new Writer({ format: 'N-Triples' });
  return w.quadsToString(quads.map((q) => DataFactory.quad(q.subject as RDF.Quad_Subject, q.predicate as RDF.Quad_Predicate, q.object as RDF.Quad_Object)) as never);
}

export class TripleStore {
  private readonly ox = new ox.Store();
  private journal!: Journal;
  readonly queries: QueryFiles;
  /** Set when a journal write failed: the store refuses writes until restart. */
  private broken: Error | undefined;

  private constructor(readonly dir: string, options: StoreOptions) {
    this.queries = options.queries ?? new QueryFiles();
  }

  /** Opens (or creates) the store under `dir`: last snapshot, then the journal tail. */
  static async open(dir: string, options: StoreOptions = {}): Promise<TripleStore> {
    mkdirSync(dir, { recursive: true });
    const store = new TripleStore(dir, options);
    const snapshot = path.join(dir, 'snapshot.nq');
    if (existsSync(snapshot)) store.ox.load(readFileSync(snapshot, 'utf8'), { format: 'application/n-quads', no_transaction: true });
    const journalFile = path.join(dir, 'journal.log');
    const read = readJournal(journalFile);
    for (const record of read.records) store.applyRecord(JSON.parse(record.toString('utf8')) as JournalOp[]);
    store.journal = new Journal(journalFile, read.torn ? read.validLength : undefined);
    return store;
  }

  get size(): number {
    return this.ox.size;
  }

  /** Applies `ops` atomically and durably: resolves once they are fsynced and visible. */
  async commit(ops: readonly WriteOp[]): Promise<void> {
    if (this.broken) throw new ServiceUnavailable('the store cannot write after a disk error; restart the service');
    const record: JournalOp[] = ops.map((o) => (o.op === 'drop' ? { op: o.op, graph: checkGraph(o.graph) } : { op: o.op, graph: checkGraph(o.graph), nt: toNTriples(o.quads) }));
    const payload = Buffer.from(JSON.stringify(record), 'utf8');
    try {
      await this.journal.append(payload, () => this.applyRecord(record));
    } catch (e) {
      this.broken = e as Error;
      throw new ServiceUnavailable('writing the journal failed', { cause: e });
    }
  }

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

  private applyRecord(record: JournalOp[]): void {
    for (const op of record) {
      const g = ox.namedNode(op.graph);
      if (op.op === 'replace' || op.op === 'drop') this.dropInMemory(g);
      if ((op.op === 'replace' || op.op === 'add') && op.nt) this.ox.load(op.nt, { format: NT, to_graph_name: g, no_transaction: true });
      if (op.op === 'remove' && op.nt) {
        for (const q of new Parser({ format: 'N-Triples' }).parse(op.nt)) {
          this.ox.delete(ox.quad(ox.fromTerm(q.subject), ox.fromTerm(q.predicate), ox.fromTerm(q.object), g));
        }
      }
    }
  }

  private dropInMemory(g: ox.NamedNode): void {
    for (const q of this.ox.match(null, null, null, g)) this.ox.delete(q);
  }

  // ---- reads: synchronous and cheap; heavy public queries go through the SPARQL worker.

  /** Every triple of graph `graph` (quads whose graph is `graph`). */
  graph(graph: string): RDF.Quad[] {
    return this.ox.match(null, null, null, ox.namedNode(checkGraph(graph))) as unknown as RDF.Quad[];
  }

  hasGraph(graph: string): boolean {
    return this.ox.match(null, null, null, ox.namedNode(checkGraph(graph))).length > 0;
  }

  /** Triples matching a pattern in one graph (or all graphs when graph is null). */
  match(s: RDF.Term | null, p: RDF.Term | null, o: RDF.Term | null, graph: string | null): RDF.Quad[] {
    const t = (x: RDF.Term | null) => (x === null ? null : (ox.fromTerm(x) as ox.Term));
    return this.ox.match(t(s), t(p), t(o), graph === null ? null : ox.namedNode(checkGraph(graph))) as unknown as RDF.Quad[];
  }

  /** Runs SELECT query file `name` with `values` bound. */
  select(name: string, values: Record<string, Bindable> = {}): Row[] {
    const result = this.ox.query(this.queries.text(name, values));
    if (!Array.isArray(result)) throw new Error(`${name} is not a SELECT query`);
    return (result as Map<string, RDF.Term>[]).map((m) => Object.fromEntries(m) as Row);
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
    await this.journal.close();
  }
}

function checkGraph(graph: string): string {
  if (!isValidIri(graph)) throw new Error(`invalid graph IRI ${JSON.stringify(graph)}`);
  return graph;
}
