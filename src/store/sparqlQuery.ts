// Public SPARQL queries: parsed with sparqljs before anything runs, so a
// syntax error answers 400 with its position and an update answers 403 without ever
// reaching the store; the query's dataset is worked out here (SPARQL 1.1 Protocol §2.1.4).
import sparqljs from 'sparqljs';
import { BadRequest, Forbidden } from '../errors.ts';
import { ERR } from '../rdf/vocab.ts';
import { checkIri } from './binder.ts';

export type QueryKind = 'select' | 'ask' | 'construct' | 'describe';

export interface SparqlQuery {
  text: string;
  kind: QueryKind;
  baseIri: string;
  /** FROM and FROM NAMED of the query text, when it has any. */
  from?: { default: string[]; named: string[] };
}

/** The default graph as the union of all graphs, or explicit default and named graphs. */
export type Dataset = { union: true } | { union: false; default: string[]; named: string[] };

interface ParseErrorHash {
  token?: string;
  text?: string;
  loc?: { last_line: number; last_column: number };
  expected?: string[];
}

/**
 * Line and column (1-based) of the offending token. The parser reports where the last
 * good token ends; the offending one is the next non-blank character.
 */
function position(text: string, loc: { last_line: number; last_column: number }): { line: number; column: number } {
  const lines = text.split('\n');
  let line = loc.last_line - 1;
  let column = loc.last_column;
  while (line < lines.length) {
    const text = lines[line]!;
    while (column < text.length && /\s/.test(text[column]!)) column++;
    if (column < text.length || line === lines.length - 1) break;
    line++;
    column = 0;
  }
  return { line: line + 1, column: column + 1 };
}

function syntaxError(e: unknown, text: string): BadRequest {
  const err = e as Error & { hash?: ParseErrorHash };
  const hash = err.hash;
  if (!hash?.loc) return new BadRequest(`SPARQL syntax error: ${err.message}`, { code: ERR.SparqlSyntaxError });
  const expected = (hash.expected ?? []).slice(0, 8).join(', ');
  const got = hash.token === 'EOF' ? 'the end of the query' : `'${hash.text || hash.token}'`;
  const at = position(text, hash.loc);
  return new BadRequest(`SPARQL syntax error at line ${at.line}, column ${at.column}: unexpected ${got}`, {
    code: ERR.SparqlSyntaxError,
    details: `${err.message.split('\n').slice(0, 3).join('\n')}${expected ? `\nExpected one of: ${expected}${(hash.expected ?? []).length > 8 ? ', ...' : ''}` : ''}`,
  });
}

/** Parses and classifies a query; updates are refused (the endpoint is read-only). */
export function parseSparqlQuery(text: string, baseIri: string): SparqlQuery {
  let parsed: sparqljs.SparqlQuery;
  try {
    parsed = new sparqljs.Parser({ baseIRI: baseIri }).parse(text);
  } catch (e) {
    throw syntaxError(e, text);
  }
  if (parsed.type === 'update') {
    throw new Forbidden('SPARQL updates are not allowed here: the endpoint is read-only; resources change through their REST interface', {
      code: ERR.SparqlUpdateForbidden,
    });
  }
  // Text with only comments or a prologue parses to no query at all.
  if (!parsed.queryType) throw new BadRequest('no SPARQL query: the text holds only comments or prefix declarations', { code: ERR.MissingParameter });
  const kind = parsed.queryType.toLowerCase() as QueryKind;
  const from = parsed.from && (parsed.from.default.length > 0 || parsed.from.named.length > 0)
    ? { default: parsed.from.default.map((n) => n.value), named: parsed.from.named.map((n) => n.value) }
    : undefined;
  return { text, kind, baseIri, from };
}

export interface DatasetRequest {
  /** default-graph-uri and named-graph-uri of the protocol; they override FROM. */
  defaultGraphs?: readonly string[];
  namedGraphs?: readonly string[];
  /** Graphs the caller may query (a hook for access control); undefined = all. */
  graphs?: readonly string[];
}

/**
 * The dataset a query runs on. Without protocol graphs or FROM, the default graph is the
 * union of every named graph (researchers query the store directly) and all named graphs
 * are available; an allow-list narrows either.
 */
export function datasetOf(query: SparqlQuery, request: DatasetRequest = {}): Dataset {
  const protocol = (request.defaultGraphs?.length ?? 0) + (request.namedGraphs?.length ?? 0) > 0
    ? { default: (request.defaultGraphs ?? []).map((g) => checkIri(g, 'default-graph-uri')), named: (request.namedGraphs ?? []).map((g) => checkIri(g, 'named-graph-uri')) }
    : undefined;
  const explicit = protocol ?? query.from;
  const allow = request.graphs;
  if (!explicit) return allow ? { union: false, default: [...allow], named: [...allow] } : { union: true };
  const keep = (list: string[]) => (allow ? list.filter((g) => allow.includes(g)) : list);
  return { union: false, default: keep(explicit.default), named: keep(explicit.named) };
}

/** SELECT and ASK results, JSON first: the default (SPARQL 1.1 Protocol §2.1.5). */
export const SPARQL_RESULTS_TYPES = [
  'application/sparql-results+json',
  'application/sparql-results+xml',
  'text/csv',
  'text/tab-separated-values',
] as const;
