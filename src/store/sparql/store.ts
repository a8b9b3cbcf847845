// The store on any SPARQL 1.1 Protocol endpoint (DESIGN: storage rules, "above the
// embedded ceiling"). A commit is one update request (SPARQL 1.1 Update §3: a request's
// operations in order), so a graph is never replaced by two requests with a gap between
// them; with a Graph Store endpoint, the large additions to a graph go there instead, in
// requests of their own, in their place in the order.
// Virtuoso 7.2 commits each operation as it runs it and keeps them when a later one fails;
// every commit is idempotent, so sending it again completes it (docs/engines.md, Writes).
// Durability is the store's.
import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'n3';
import { GraphWriter, type Store, type StoreCapabilities, type Row, type SelectOptions, type SparqlOptions, type WriteOp } from '../api.ts';
import { QueryFiles } from '../queries.ts';
import { termToSparql, type Bindable } from '../binder.ts';
import { encodeOps, type JournalOp } from '../writeOps.ts';
import { datasetOf, type SparqlQuery } from '../sparqlQuery.ts';
import { describePattern, matchSelect } from '../patterns.ts';
import { SparqlProtocol, type SparqlEndpoint } from './protocol.ts';
import { isLexicalColumn, lexicalConstruct, lexicalQuad, lexicalRow, pageOutsideOrder, selectPages, storedQuad, toStored, withGraphEnumeration, withLexicalForms, writtenQuad } from './quirks.ts';
import { booleanOf, rowsOf, type JsonResults } from './results.ts';
import { writeResults, type Answer } from './resultsWriter.ts';
import { serialize } from '../../rdf/serialize.ts';
import { ServiceUnavailable } from '../../errors.ts';
import { ERR } from '../../rdf/vocab.ts';

const { namedNode, quad } = DataFactory;

/**
 * Triples per INSERT DATA operation. Virtuoso's SPARQL parser runs out of stack near
 * 5,000 triples in one operation; several operations in one request are fine.
 */
const TRIPLES_PER_OPERATION = 2000;
/** Answers with rows missing a variable that a triple-pattern read accepts before it gives up. */
const INCOMPLETE_ATTEMPTS = 3;
/**
 * Rows per request of a structural read (graph, match, describe): below Virtuoso's default
 * ResultSetMaxRows (10,000), so no answer is cut at the cap.
 */
const ROWS_PER_PAGE = 5000;
/** Subjects per describe() read. */
const SUBJECTS_PER_READ = 100;

export interface SparqlStoreOptions extends SparqlEndpoint {
  queries?: QueryFiles;
  /** Time limit of a public query (/sparql), as SPARQL_TIMEOUT_MS for the embedded store. */
  publicTimeoutMs?: number;
  /** With a graphStoreUrl: the triples from which an addition to one graph is a graph write (default GRAPH_STORE_FROM). */
  graphStoreFrom?: number;
}

const lines = (nt: string | undefined): string[] => (nt ? nt.split('\n').filter((l) => l.trim() !== '') : []);
const hasBlank = (triples: readonly string[]): boolean => triples.some((t) => /(^|\s)_:/.test(t));

/**
 * Triples from which an addition to one graph goes to the Graph Store endpoint, when the store
 * has one: below it, the request of its own costs more than the faster load saves.
 */
const GRAPH_STORE_FROM = 1000;
/** Triples per Graph Store request: a longer add goes as several (adds commute). */
const GRAPH_STORE_TRIPLES = 100_000;

/** Triples added to a graph through the Graph Store endpoint (a POST, GSP §5.5). */
interface GraphWrite {
  graph: string;
  triples: string[];
}

/** One step of a commit: INSERT DATA triples into a graph, a graph dropped, an operation as text, or a graph write. */
type Step = { insert: string; triples: string[] } | { drop: string } | { text: string } | GraphWrite;

/**
 * Graphs per operation when a commit drops several in a row. Virtuoso runs a `DROP SILENT
 * GRAPH` a graph at a time, about 4 ms each (12,000 task graphs: about a minute), and one
 * `DELETE … WHERE { VALUES ?g {…} GRAPH ?g {…} }` over 3,000 graphs in 0.3 s (measured here,
 * same store, 40 times faster). The two leave the same store: a graph is its quads (SPARQL 1.1
 * Update §3.1.3, §3.2.2). 2,000 graphs in one operation passed; 500 keeps the text small.
 */
const DROPS_PER_OPERATION = 500;

/** One operation that empties `graphs`. */
function dropAll(graphs: readonly string[]): string {
  if (graphs.length === 1) return `DROP SILENT GRAPH ${graphs[0]}`;
  return `DELETE { GRAPH ?g { ?s ?p ?o } } WHERE { VALUES ?g { ${graphs.join(' ')} } GRAPH ?g { ?s ?p ?o } }`;
}

/**
 * The steps of one journal op (its N-Triples are checked by encodeOps). `graphStoreFrom`:
 * the triples from which an addition without blank nodes is a graph write (undefined: none is).
 */
function steps(op: JournalOp, graphStoreFrom: number | undefined): Step[] {
  const g = `<${op.graph}>`;
  const triples = lines(op.nt);
  switch (op.op) {
    case 'drop':
      return [{ drop: g }];
    case 'remove':
      return triples.length === 0 ? [] : [{ text: `DELETE DATA { GRAPH ${g} {\n${triples.join('\n')}\n} }` }];
    case 'replace':
    case 'add': {
      // Adds only: Virtuoso's PUT drops the graph and loads the body as two steps, and a
      // reader between them finds the graph empty (the store contract's half-replaced case).
      if (op.op === 'add' && graphStoreFrom !== undefined && triples.length >= graphStoreFrom && !hasBlank(triples)) {
        const writes: Step[] = [];
        for (let i = 0; i < triples.length; i += GRAPH_STORE_TRIPLES) writes.push({ graph: op.graph, triples: triples.slice(i, i + GRAPH_STORE_TRIPLES) });
        return writes;
      }
      const out: Step[] = op.op === 'replace' ? [{ text: `DROP SILENT GRAPH ${g}` }] : [];
      if (triples.length === 0) return out;
      // Blank nodes may not stand in INSERT DATA on some stores (Virtuoso SP031); a template
      // with an empty WHERE mints them just the same, one set per operation, so such a
      // write stays in a single operation.
      if (hasBlank(triples)) return [...out, { text: `INSERT { GRAPH ${g} {\n${triples.join('\n')}\n} } WHERE {}` }];
      return [...out, { insert: g, triples }];
    }
  }
}

/**
 * The update operations and graph writes of a commit, in order. Consecutive inserts share
 * INSERT DATA operations of up to TRIPLES_PER_OPERATION triples, one GRAPH block per graph
 * (SPARQL 1.1 Update §3.1.1): Virtuoso takes minutes over a request of thousands of small
 * operations (a bulk upload's compounds), and seconds over the same triples in a few large ones.
 * Consecutive drops share operations of up to DROPS_PER_OPERATION graphs, for the same reason.
 */
function operations(ops: readonly JournalOp[], graphStoreFrom: number | undefined): Array<string | GraphWrite> {
  const out: Array<string | GraphWrite> = [];
  let blocks: string[] = [];
  let size = 0;
  let drops: string[] = [];
  const flush = () => {
    if (blocks.length > 0) out.push(`INSERT DATA {\n${blocks.join('\n')}\n}`);
    blocks = [];
    size = 0;
    if (drops.length > 0) out.push(dropAll(drops));
    drops = [];
  };
  for (const step of ops.flatMap((op) => steps(op, graphStoreFrom))) {
    if ('drop' in step) {
      if (blocks.length > 0 || drops.length === DROPS_PER_OPERATION) flush();
      drops.push(step.drop);
      continue;
    }
    if (!('insert' in step)) {
      flush();
      out.push('text' in step ? step.text : step);
      continue;
    }
    if (drops.length > 0) flush();
    for (let i = 0; i < step.triples.length; ) {
      const part = step.triples.slice(i, i + TRIPLES_PER_OPERATION - size);
      blocks.push(`GRAPH ${step.insert} {\n${part.join('\n')}\n}`);
      size += part.length;
      i += part.length;
      if (size >= TRIPLES_PER_OPERATION) flush();
    }
  }
  flush();
  return out;
}

/**
 * Characters per update request. Virtuoso refuses a request longer than 10 MB ("The
 * requested string session is longer than 10Mb"), which the entry links of a 100,000-row
 * dataset exceed; a longer commit goes as several requests, in order. Virtuoso keeps the
 * operations of a request as it runs them anyway (docs/engines.md, Writes), so this splits
 * nothing that was atomic.
 */
const REQUEST_CHARS = 8_000_000;
/**
 * Operations per update request. Virtuoso compiles a request into one procedure and refuses
 * one of 1,000 `DROP GRAPH` operations ("SQ156 Query too large, variables in state over the
 * limit"; 700 pass): purging many finished tasks, or dropping many graphs, goes as several.
 */
const OPS_PER_REQUEST = 500;

/** One request to the store: an update, or a graph write. */
type Request = { update: string } | GraphWrite;

/** Consecutive operations joined into update requests; graph writes stand alone, in their place. */
function requestsOf(ops: ReadonlyArray<string | GraphWrite>): Request[] {
  const out: Request[] = [];
  let current: string[] = [];
  let size = 0;
  const flush = () => {
    if (current.length > 0) out.push({ update: current.join(' ;\n') });
    current = [];
    size = 0;
  };
  for (const op of ops) {
    if (typeof op !== 'string') {
      flush();
      out.push(op);
      continue;
    }
    if (current.length > 0 && (size + op.length > REQUEST_CHARS || current.length === OPS_PER_REQUEST)) flush();
    current.push(op);
    size += op.length + 3;
  }
  flush();
  return out;
}

/** A bound term as the store keeps it (quirks.ts toStored). */
const stored = (t: RDF.NamedNode | RDF.Literal): string => termToSparql(toStored(t) as RDF.NamedNode | RDF.Literal);

export class SparqlStore extends GraphWriter implements Store {
  readonly kind = 'sparql' as const;
  /** Why each value: StoreCapabilities in api.ts; in short, the store is shared and answers on its own threads. */
  readonly capabilities: StoreCapabilities = Object.freeze({
    filesInStore: true,
    soleWriter: false,
    quadsPerCommit: Infinity,
    writesInFlight: 1,
    subjectsPerRead: SUBJECTS_PER_READ,
    readsAhead: 2,
  });
  readonly queries: QueryFiles;
  readonly protocol: SparqlProtocol;

  private readonly publicTimeoutMs: number;
  /** Undefined when the store has no Graph Store endpoint: every write is an update. */
  private readonly graphStoreFrom: number | undefined;
  /** The last write sent: writes go one at a time, in the order they were made. */
  private lastWrite: Promise<void> = Promise.resolve();

  constructor(options: SparqlStoreOptions) {
    super();
    this.publicTimeoutMs = options.publicTimeoutMs ?? 30_000;
    this.graphStoreFrom = options.graphStoreUrl === undefined ? undefined : Math.max(1, options.graphStoreFrom ?? GRAPH_STORE_FROM);
    this.queries = options.queries ?? new QueryFiles();
    this.protocol = new SparqlProtocol(options);
  }

  /**
   * Writes are applied one at a time, in the order they were made, as the embedded journal
   * does: Virtuoso runs concurrent update requests interleaved, so two replacements of one
   * graph (a task's progress and its end) could leave it empty or stale.
   */
  commit(ops: readonly WriteOp[]): Promise<void> {
    const stored = ops.map((o) => (o.op === 'drop' ? o : { ...o, quads: o.quads.map(storedQuad) }));
    const requests = requestsOf(operations(encodeOps(stored), this.graphStoreFrom));
    if (requests.length === 0) return this.lastWrite;
    const write = this.lastWrite.then(async () => {
      for (const r of requests) {
        if ('update' in r) await this.protocol.update(r.update);
        else await this.protocol.addToGraph(r.graph, r.triples.join('\n') + '\n');
      }
    });
    this.lastWrite = write.catch(() => undefined);
    return write;
  }

  // Structural reads are written here rather than in queries/: their shape depends on
  // which positions are bound, and every bound term goes through the binder's termToSparql.

  async graph(graph: string): Promise<RDF.Quad[]> {
    const g = namedNode(graph);
    return this.triples(`GRAPH ${stored(g)} { ?s ?p ?o }`, g);
  }

  hasGraph(graph: string): Promise<boolean> {
    return this.protocol.ask(`ASK { GRAPH ${stored(namedNode(graph))} { ?s ?p ?o } }`);
  }

  async match(s: RDF.Term | null, p: RDF.Term | null, o: RDF.Term | null, graph: string | null): Promise<RDF.Quad[]> {
    const g = graph === null ? null : namedNode(graph);
    const { query, unbound } = matchSelect(s, p, o, g, stored);
    const rows = await this.completeRows(query, unbound);
    return rows.map((r) => quad(
      (s ?? r.s) as RDF.Quad_Subject, (p ?? r.p) as RDF.Quad_Predicate, (o ?? r.o) as RDF.Quad_Object, (g ?? r.g) as RDF.Quad_Graph,
    ));
  }

  async describe(graph: string, subjects: readonly RDF.NamedNode[]): Promise<RDF.Quad[]> {
    const g = namedNode(graph);
    const out: RDF.Quad[] = [];
    for (let i = 0; i < subjects.length; i += SUBJECTS_PER_READ) {
      for (const q of await this.triples(describePattern(g, subjects.slice(i, i + SUBJECTS_PER_READ), stored), g)) out.push(q);
    }
    return out;
  }

  /**
   * `union`: the query is sent without a dataset, and the protocol leaves the default graph
   * to the store (SPARQL 1.1 Protocol §2.1.4); Virtuoso's is the union of every graph.
   */
  async select(name: string, values: Record<string, Bindable> = {}, _options: SelectOptions = {}): Promise<Row[]> {
    const text = this.queries.text(name, values);
    // Read a page at a time, so that an answer longer than the store's row cap (every
    // compound, read at start) comes whole; a query with its own LIMIT is one page already,
    // taken outside its order (a list's page).
    const pages = selectPages(text, ROWS_PER_PAGE);
    return pages ? this.allPages(pages, []) : this.rows(pageOutsideOrder(text));
  }

  /** A SELECT whose literals come back as they were written, graphs enumerated (quirks.ts). */
  private async rows(query: string): Promise<Row[]> {
    return (await this.protocol.select(withLexicalForms(withGraphEnumeration(query)))).map(lexicalRow);
  }

  /**
   * The rows of a triple-pattern SELECT projecting `vars`, each binding all of them, read
   * ROWS_PER_PAGE at a time (quirks.ts selectPages), so a graph or a list larger than the
   * store's row cap (the entry links of a 100,000-row dataset) is read whole.
   */
  private completeRows(query: string, vars: readonly string[]): Promise<Row[]> {
    // Without a variable there is at most one row: nothing to page.
    return vars.length === 0 ? this.pageOf(query, vars) : this.allPages(selectPages(query, ROWS_PER_PAGE)!, vars);
  }

  /** Every page of `pages`, read in order until one comes back short. */
  private async allPages(pages: (offset: number) => string, vars: readonly string[]): Promise<Row[]> {
    const out: Row[] = [];
    for (let offset = 0; ; offset += ROWS_PER_PAGE) {
      const page = await this.pageOf(pages(offset), vars);
      for (const row of page) out.push(row);
      if (page.length < ROWS_PER_PAGE) return out;
    }
  }

  /**
   * One answer whose rows each bind every one of `vars`, as SPARQL 1.1 (§18.5) requires of
   * a basic graph pattern's solutions. Virtuoso 7.2 has answered rows without ?o when the
   * graph was being written to at the same moment (a task polled while its job wrote its
   * progress, on a store of two million triples); such an answer is asked again, and after
   * three such answers the request is refused with a 503 rather than read as a graph with
   * holes.
   */
  private pageOf(query: string, vars: readonly string[]): Promise<Row[]> {
    return this.whole(async () => {
      const rows = await this.rows(query);
      return rows.every((r) => vars.every((v) => r[v] !== undefined)) ? rows : undefined;
    });
  }

  /**
   * The triples `pattern` (binding ?s ?p ?o) matches, in `graph`: one CONSTRUCT when they
   * are fewer than a page (quirks.ts lexicalConstruct; no order is needed to read them all),
   * else the SELECT of the same pattern, a page at a time in a fixed order. An answer with
   * an unbound position is asked again, as pageOf does.
   */
  private async triples(pattern: string, graph: RDF.NamedNode): Promise<RDF.Quad[]> {
    const answer = await this.whole(async () => {
      const quads = await this.protocol.construct(lexicalConstruct(pattern, ROWS_PER_PAGE));
      if (quads.length >= ROWS_PER_PAGE) return 'more';
      const out: RDF.Quad[] = [];
      for (const q of quads) {
        const read = lexicalQuad(q, graph);
        if (read === undefined) return undefined;
        out.push(read);
      }
      return out;
    });
    if (answer !== 'more') return answer;
    const rows = await this.completeRows(`SELECT ?s ?p ?o WHERE { ${pattern} }`, ['s', 'p', 'o']);
    return rows.map((r) => quad(r.s as RDF.Quad_Subject, r.p as RDF.Quad_Predicate, r.o as RDF.Quad_Object, graph));
  }

  /**
   * `read`'s answer once it is whole (undefined: the store answered with unbound variables).
   * Such an answer is asked again after 50, then 100 ms; the third is refused with a 503.
   */
  private async whole<T>(read: () => Promise<T | undefined>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const answer = await read();
      if (answer !== undefined) return answer;
      if (attempt === INCOMPLETE_ATTEMPTS) {
        throw new ServiceUnavailable(`the SPARQL store at ${this.protocol.url} answered rows with unbound variables ${attempt} times`, {
          retryAfterSeconds: 1,
          details: 'The store was probably writing the same graph; asking again shortly should succeed.',
        });
      }
      await new Promise((r) => setTimeout(r, 50 * attempt));
    }
  }

  ask(name: string, values: Record<string, Bindable> = {}): Promise<boolean> {
    return this.protocol.ask(this.queries.text(name, values));
  }

  async construct(name: string, values: Record<string, Bindable> = {}): Promise<RDF.Quad[]> {
    return (await this.protocol.construct(this.queries.text(name, values))).map(writtenQuad);
  }

  /**
   * A public query, run by the store itself with the protocol's dataset parameters
   * (SPARQL 1.1 Protocol §2.1.4); CONSTRUCT and DESCRIBE answers are re-serialised so
   * every RDF syntax of the service is offered.
   */
  async sparql(query: SparqlQuery, options: SparqlOptions = {}): Promise<string> {
    const limit = AbortSignal.timeout(this.publicTimeoutMs);
    try {
      return await this.publicQuery(query, { ...options, signal: options.signal ? AbortSignal.any([options.signal, limit]) : limit });
    } catch (e) {
      if (!limit.aborted || options.signal?.aborted) throw e;
      throw new ServiceUnavailable(`the query ran longer than the limit of ${this.publicTimeoutMs} ms and was stopped`, {
        code: ERR.QueryTimeout,
        details: 'Narrow the query (LIMIT, more selective patterns), or ask the operator for a larger SPARQL_TIMEOUT_MS.',
      });
    }
  }

  private async publicQuery(query: SparqlQuery, options: SparqlOptions): Promise<string> {
    const dataset = datasetOf(query, options);
    const params = new URLSearchParams();
    if (!dataset.union) {
      for (const g of dataset.default) params.append('default-graph-uri', g);
      for (const g of dataset.named) params.append('named-graph-uri', g);
    }
    if (query.kind === 'select' || query.kind === 'ask') {
      // Asked in JSON and written here (resultsWriter.ts), so every store answers alike.
      const text = query.kind === 'select' ? withLexicalForms(query.text) : query.text;
      const json = JSON.parse((await this.protocol.raw(text, 'application/sparql-results+json', options.signal, params)).body) as JsonResults;
      const answer: Answer = query.kind === 'ask'
        ? { boolean: booleanOf(json) }
        : { vars: (json.head?.vars ?? []).filter((v) => !isLexicalColumn(v)), rows: rowsOf(json).map(lexicalRow) };
      return writeResults(answer, options.resultsFormat ?? 'application/sparql-results+json');
    }
    const quads = (await this.protocol.construct(query.text, options.signal, params)).map(writtenQuad);
    return serialize(quads, options.syntax ?? 'rdfxml');
  }

  async close(): Promise<void> {
    // Nothing is held open: each request is its own.
  }
}
