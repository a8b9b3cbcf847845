// Parses request bodies in every RDF syntax of the format table into quads, with parse
// errors that name line and column (bad input; STYLE §12).
import type * as RDF from '@rdfjs/types';
import { Parser, DataFactory } from 'n3';
import { RdfXmlParser } from 'rdfxml-streaming-parser';
import jsonld from 'jsonld';
import { BadRequest, HttpError } from '../errors.ts';
import { checkXmlEntities, entityCounter } from '../http/xmlEntities.ts';
import { isAbsoluteIri, iriHint } from './iri.ts';
import { ERR, OT_NS, OT_NS_12 } from './vocab.ts';
import type { RdfSyntax } from './formats.ts';

export const SYNTAX_NAMES: Record<RdfSyntax, string> = {
  rdfxml: 'RDF/XML', turtle: 'Turtle', ntriples: 'N-Triples', n3: 'N3', jsonld: 'JSON-LD',
};

/** Where a parser says the error is; column when the parser knows it. */
export interface Position {
  line: number;
  column?: number;
}

export function rdfError(syntax: RdfSyntax, message: string, at?: Position): BadRequest {
  const where = at ? ` at line ${at.line}${at.column === undefined ? '' : `, column ${at.column}`}` : '';
  return new BadRequest(`malformed ${SYNTAX_NAMES[syntax]}${where}: ${message}`, { code: ERR.RDFSyntaxError });
}

export async function parseRdf(text: string, syntax: RdfSyntax, baseIri: string): Promise<RDF.Quad[]> {
  const quads = (await parseRaw(text, syntax, baseIri)).map(normaliseNamespace);
  const checked = new Set<string>();
  for (const q of quads) checkTerms(q, checked);
  return quads;
}

async function parseRaw(text: string, syntax: RdfSyntax, baseIri: string): Promise<RDF.Quad[]> {
  switch (syntax) {
    case 'turtle':
    case 'ntriples':
    case 'n3':
      return parseN3(text, syntax, baseIri);
    case 'rdfxml':
      return parseRdfXml(text, baseIri);
    case 'jsonld':
      return parseJsonLd(text, baseIri);
  }
}

function parseN3(text: string, syntax: 'turtle' | 'ntriples' | 'n3', baseIri: string): RDF.Quad[] {
  const format = { turtle: 'text/turtle', ntriples: 'N-Triples', n3: 'text/n3' }[syntax];
  try {
    return new Parser({ format, baseIRI: baseIri }).parse(text);
  } catch (e) {
    // N3.js gives the line (in context and in the message), not the column.
    const err = e as Error & { context?: { line?: number } };
    const line = err.context?.line ?? Number(/on line (\d+)/.exec(err.message)?.[1] ?? NaN);
    const message = err.message.replace(/\s*on line \d+\.?$/, '');
    throw rdfError(syntax, message, Number.isFinite(line) ? { line, column: lexerColumn(text, line, message) } : undefined);
  }
}

/**
 * N3.js gives no column. A lexer error quotes the text where lexing stopped ("Unexpected
 * "<http://e/a b>""); when that text occurs once on the line, its place is the column.
 */
function lexerColumn(text: string, line: number, message: string): number | undefined {
  const issue = /^Unexpected "(.+)"$/s.exec(message)?.[1];
  if (!issue) return undefined;
  const lineText = text.split('\n')[line - 1] ?? '';
  const at = lineText.indexOf(issue);
  return at >= 0 && lineText.indexOf(issue, at + 1) < 0 ? at + 1 : undefined;
}

/** The parts of rdfxml-streaming-parser's XML layer (saxes) used here. */
interface SaxLayer {
  close(): void;
  parseEntity(name: string): string;
}

function parseRdfXml(text: string, baseIri: string): Promise<RDF.Quad[]> {
  // Entities are bounded before parsing (any reading of the DTD) and while parsing (what
  // the parser really expands), so an oversized expansion is never built.
  checkXmlEntities(text, 'the RDF/XML body');
  return new Promise((resolve, reject) => {
    const quads: RDF.Quad[] = [];
    let failed = false;
    const fail = (e: Error) => {
      if (failed) return;
      failed = true;
      reject(e instanceof HttpError ? e : rdfXmlError(e.message));
    };
    const parser = new RdfXmlParser({ baseIRI: baseIri, trackPosition: true });
    const sax = (parser as unknown as { saxParser: SaxLayer }).saxParser;
    const count = entityCounter(text.length, 'the RDF/XML body');
    const expand = sax.parseEntity.bind(sax);
    sax.parseEntity = (name) => {
      const produced = expand(name);
      count(name, produced);
      return produced;
    };
    parser.on('data', (q: RDF.Quad) => quads.push(q));
    parser.on('error', fail);
    parser.on('end', () => {
      // rdfxml-streaming-parser never tells its XML layer that the document ended, so a
      // truncated body (an unclosed element) would pass as the triples read so far. Closing
      // it reports "unclosed tag" through the 'error' listener above.
      if (!failed && text.trim()) sax.close();
      if (!failed) resolve(quads);
    });
    try {
      parser.write(text);
      parser.end();
    } catch (e) {
      fail(e as Error);
    }
  });
}

/** The XML layer says "4:6: msg"; the RDF layer says "Line 1 column 119: msg". */
function rdfXmlError(message: string): BadRequest {
  const m = /^(?:Line )?(\d+)(?::| column )(\d+):\s*(.*)$/s.exec(message);
  if (!m) return rdfError('rdfxml', message);
  return rdfError('rdfxml', m[3]!, { line: Number(m[1]), column: Number(m[2]) }); // groups not optional
}

async function parseJsonLd(text: string, baseIri: string): Promise<RDF.Quad[]> {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    const message = (e as Error).message;
    const pos = Number(/at position (\d+)/.exec(message)?.[1] ?? NaN);
    throw rdfError('jsonld', message, Number.isFinite(pos) ? positionOf(text, pos) : undefined);
  }
  // Our own output for an empty graph is a bare context; safe mode would call it lossy.
  if (doc && typeof doc === 'object' && !Array.isArray(doc) && Object.keys(doc).every((k) => k === '@context')) return [];
  try {
    // Safe mode: a term jsonld would silently drop (relative IRI, unmapped key) is an error.
    const nq = (await jsonld.toRDF(doc as object, { format: 'application/n-quads', base: baseIri, safe: true } as jsonld.Options.ToRdf)) as unknown as string;
    return new Parser({ format: 'N-Quads' }).parse(nq);
  } catch (e) {
    const err = e as Error & { details?: { event?: { code?: string; details?: unknown } } };
    const event = err.details?.event;
    const detail = event ? ` (${event.code}${event.details ? ': ' + JSON.stringify(event.details).slice(0, 200) : ''})` : '';
    throw rdfError('jsonld', err.message + detail);
  }
}

/** Line and column (1-based) of character offset `pos` in `text`. */
export function positionOf(text: string, pos: number): Position {
  const before = text.slice(0, pos);
  const line = before.split('\n').length;
  return { line, column: pos - before.lastIndexOf('\n') };
}

/** The store takes only absolute IRIs it can write back; say which one is not. */
function checkTerms(q: RDF.Quad, checked: Set<string>): void {
  for (const t of [q.subject, q.predicate, q.object]) {
    const iri = t.termType === 'NamedNode' ? t.value : t.termType === 'Literal' ? t.datatype.value : undefined;
    if (iri === undefined || checked.has(iri)) continue;
    // Predicates and datatypes repeat on every row: check each distinct IRI once.
    checked.add(iri);
    if (!isAbsoluteIri(iri)) {
      throw new BadRequest(`not a valid absolute IRI: ${JSON.stringify(iri.slice(0, 200))}`, { code: ERR.InvalidIRI, details: iriHint(iri) });
    }
  }
}

/** `api/1.2#` terms are read as the `api/1.1#` ones we emit (DESIGN: conventions). */
function normaliseNamespace(q: RDF.Quad): RDF.Quad {
  const fix = <T extends RDF.Term>(t: T): T =>
    t.termType === 'NamedNode' && t.value.startsWith(OT_NS_12) ? (DataFactory.namedNode(OT_NS + t.value.slice(OT_NS_12.length)) as unknown as T) : t;
  if (![q.subject, q.predicate, q.object].some((t) => t.termType === 'NamedNode' && t.value.startsWith(OT_NS_12))) return q;
  return DataFactory.quad(fix(q.subject) as never, fix(q.predicate) as never, fix(q.object) as never, q.graph as never);
}
