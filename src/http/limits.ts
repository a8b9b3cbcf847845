// Limits that protect the service from a single request: each is a configuration option,
// and a request past one is refused with 413 (RFC 9110 §15.5.14) and a report naming the
// limit, its option and the value seen, before the expensive work starts.
import type Koa from 'koa';
import type { Config } from '../config.ts';
import { HttpError } from '../errors.ts';
import { ERR } from '../rdf/vocab.ts';
import type { RdfSyntax } from '../rdf/formats.ts';

export type Limits = Pick<Config, 'maxAtoms' | 'maxDatasetRows' | 'maxRdfTriples' | 'maxNesting' | 'maxSparqlLength' | 'maxParameters'>;

export class LimitExceeded extends HttpError {
  constructor(what: string, seen: number | string, limit: number, option: string) {
    super(413, ERR.LimitExceeded, `${what} is ${seen}, more than the limit of ${limit} (${option})`, {
      details: `The operator sets this limit with ${option}; split the request into smaller ones.`,
    });
  }
}

/** The limits of this request, set by `limitsMiddleware` (absent in code that runs outside a request). */
export function limitsOf(ctx: Koa.Context): Limits | undefined {
  return (ctx.state as { limits?: Limits }).limits;
}

/**
 * Before anything reads the request: counts query parameters and publishes the limits, the
 * body limit among them (src/http/body.ts), to body readers.
 */
export function limitsMiddleware(config: Config): Koa.Middleware {
  return (ctx, next) => {
    const state = ctx.state as { limits: Limits; bodyLimit: number };
    state.limits = config;
    state.bodyLimit = config.bodyLimit;
    checkParameters(countParameters(ctx.querystring), config, 'query string');
    return next();
  };
}

/** Parameters of a query string or urlencoded body, counted without decoding them. */
export const countParameters = (text: string): number => (text ? text.split('&').filter(Boolean).length : 0);

export function checkParameters(count: number, limits: Limits, where: string): void {
  if (limits.maxParameters > 0 && count > limits.maxParameters) throw new LimitExceeded(`the number of parameters in the ${where}`, count, limits.maxParameters, 'MAX_PARAMETERS');
}

export function checkAtoms(atoms: number, limits: Limits): void {
  if (limits.maxAtoms > 0 && atoms > limits.maxAtoms) throw new LimitExceeded('the number of atoms of the structure', atoms, limits.maxAtoms, 'MAX_ATOMS');
}

export function checkTriples(triples: number, limits: Limits): void {
  if (limits.maxRdfTriples > 0 && triples > limits.maxRdfTriples) throw new LimitExceeded('the number of triples of the RDF body', triples, limits.maxRdfTriples, 'MAX_RDF_TRIPLES');
}

/** Rows of a table upload (RowCounter), checked before parsing. */
export function checkRowCount(rows: number, limits: Limits): void {
  if (limits.maxDatasetRows > 0 && rows > limits.maxDatasetRows) throw new LimitExceeded('the number of rows of the dataset', rows, limits.maxDatasetRows, 'MAX_DATASET_ROWS');
}

/** Ends of lines, as the `m` flag of a regular expression takes them. */
const LINE_END = /[\n\r\u2028\u2029]/;

/**
 * Counts the rows of a table upload from its text given in pieces: CSV/TSV lines past the
 * header, SD records, SMILES lines, so that a
 * file is read a chunk at a time: a line counts when it holds more than white space (CSV,
 * TSV, SMILES; the header is not a row), or when it begins with `$$$$` (SD); an empty line
 * (the one between "\r" and "\n" too) never counts. Only the start of the current line is
 * kept between pieces, so a piece may end anywhere.
 */
export class RowCounter {
  private rows = 0;
  /** Up to four first characters of the line under way, and whether it holds a non-space. */
  private head = '';
  private filled = false;

  constructor(private readonly kind: string) {}

  /** False for kinds whose rows are not counted: their text need not be read. */
  get counts(): boolean {
    return ['sdf', 'csv', 'tsv', 'smiles'].includes(this.kind);
  }

  add(text: string): void {
    if (!this.counts || text.length === 0) return;
    text.split(LINE_END).forEach((part, k) => {
      if (k > 0) this.endLine();
      if (this.head.length < 4) this.head += part.slice(0, 4 - this.head.length);
      if (!this.filled && /\S/.test(part)) this.filled = true;
    });
  }

  /** The rows counted, the last line included. */
  end(): number {
    this.endLine();
    return this.kind === 'csv' || this.kind === 'tsv' ? Math.max(0, this.rows - 1) : this.rows;
  }

  private endLine(): void {
    if (this.kind === 'sdf' ? this.head.startsWith('$$$$') : this.filled) this.rows++;
    this.head = '';
    this.filled = false;
  }
}

/**
 * Length and nesting of a SPARQL query. Deeply nested groups or expressions overflow the
 * store's stack, and a crashed WebAssembly instance fails every later query until replaced.
 */
export function checkSparql(query: string, limits: Limits): void {
  if (limits.maxSparqlLength > 0 && query.length > limits.maxSparqlLength) throw new LimitExceeded('the length of the SPARQL query in characters', query.length, limits.maxSparqlLength, 'MAX_SPARQL_LENGTH');
  checkDepth(bracketDepth(query, SPARQL_TOKENS), limits, 'the SPARQL query');
}

/** Nesting of an RDF body by syntax: brackets (Turtle family, JSON-LD) or elements (RDF/XML). */
export function checkRdfNesting(text: string, syntax: RdfSyntax, limits: Limits): void {
  if (syntax === 'ntriples') return;
  const depth = syntax === 'rdfxml' ? elementDepth(text) : bracketDepth(text, syntax === 'jsonld' ? JSON_TOKENS : SPARQL_TOKENS);
  checkDepth(depth, limits, 'the RDF body');
}

/** Element depth of an XML body that is not RDF (CML, CDXML): the toolkits' readers recurse. */
export function checkXmlNesting(text: string, limits: Limits, what: string): void {
  checkDepth(elementDepth(text), limits, what);
}

function checkDepth(depth: number, limits: Limits, what: string): void {
  if (limits.maxNesting > 0 && depth > limits.maxNesting) throw new LimitExceeded(`the nesting depth of ${what}`, depth, limits.maxNesting, 'MAX_NESTING');
}

// Strings, IRIs and comments are skipped whole, so brackets inside them do not count.
const SPARQL_TOKENS = /"""[\s\S]*?"""|'''[\s\S]*?'''|"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|<[^<>"{}|^`\\\x00-\x20]*>|#[^\n]*|[{([]|[})\]]/g;
const JSON_TOKENS = /"(?:[^"\\]|\\.)*"|[{[]|[}\]]/g;

function bracketDepth(text: string, tokens: RegExp): number {
  let depth = 0;
  let deepest = 0;
  for (const [token] of text.matchAll(tokens)) {
    if (token.length !== 1) continue;
    if ('{(['.includes(token)) deepest = Math.max(deepest, ++depth);
    else if ('})]'.includes(token)) depth = Math.max(0, depth - 1);
  }
  return deepest;
}

/** Element depth of XML; declarations, comments, CDATA and self-closing tags do not nest. */
function elementDepth(text: string): number {
  let depth = 0;
  let deepest = 0;
  for (const [tag] of text.matchAll(/<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>|<[!?][^>]*>|<\/[^>]*>|<[^>]*>/g)) {
    if (tag.startsWith('<!') || tag.startsWith('<?') || tag.endsWith('/>')) continue;
    if (tag.startsWith('</')) depth = Math.max(0, depth - 1);
    else deepest = Math.max(deepest, ++depth);
  }
  return deepest;
}
