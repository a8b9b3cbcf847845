// SPARQL 1.1 query results written by the service (W3C: Query Results JSON, XML, CSV and
// TSV Formats), so that /sparql answers a remote store's SELECT and ASK in the same form as
// the embedded store's: stores differ in these (Virtuoso quotes CSV headers, answers ASK as
// a row, adds attributes to the XML root). The store is asked in JSON (results.ts reads it).
import type * as RDF from '@rdfjs/types';
import type { Row } from '../api.ts';
import { csvField } from '../../rdf/csvCell.ts';

const XSD_STRING = 'http://www.w3.org/2001/XMLSchema#string';

export type Answer = { vars: string[]; rows: Row[] } | { boolean: boolean };

const isTyped = (t: RDF.Literal): boolean => !t.language && t.datatype.value !== XSD_STRING;

function jsonTerm(t: RDF.Term): Record<string, string> {
  if (t.termType === 'NamedNode') return { type: 'uri', value: t.value };
  if (t.termType === 'BlankNode') return { type: 'bnode', value: t.value };
  const l = t as RDF.Literal;
  if (l.language) return { type: 'literal', value: l.value, 'xml:lang': l.language };
  return isTyped(l) ? { type: 'literal', value: l.value, datatype: l.datatype.value } : { type: 'literal', value: l.value };
}

const xmlText = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function xmlTerm(t: RDF.Term): string {
  if (t.termType === 'NamedNode') return `<uri>${xmlText(t.value)}</uri>`;
  if (t.termType === 'BlankNode') return `<bnode>${xmlText(t.value)}</bnode>`;
  const l = t as RDF.Literal;
  const attr = l.language ? ` xml:lang="${xmlText(l.language)}"` : isTyped(l) ? ` datatype="${xmlText(l.datatype.value)}"` : '';
  return `<literal${attr}>${xmlText(l.value)}</literal>`;
}

const ntString = (s: string): string => '"' + s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n').replace(/\r/g, '\\r').replace(/\t/g, '\\t') + '"';

/** The variables `row` binds, with their terms, in the order of `vars`. */
function bindings(vars: readonly string[], row: Row): Array<[string, RDF.Term]> {
  return vars.flatMap((v): Array<[string, RDF.Term]> => {
    const t = row[v];
    return t ? [[v, t]] : [];
  });
}

function tsvTerm(t: RDF.Term): string {
  if (t.termType === 'NamedNode') return `<${t.value}>`;
  if (t.termType === 'BlankNode') return `_:${t.value}`;
  const l = t as RDF.Literal;
  if (l.language) return `${ntString(l.value)}@${l.language}`;
  return isTyped(l) ? `${ntString(l.value)}^^<${l.datatype.value}>` : ntString(l.value);
}

/** `answer` in results format `type` (one of SPARQL_RESULTS_TYPES). */
export function writeResults(answer: Answer, type: string): string {
  if ('boolean' in answer) {
    if (type === 'application/sparql-results+xml') {
      return `<?xml version="1.0"?>\n<sparql xmlns="http://www.w3.org/2005/sparql-results#"><head></head><boolean>${answer.boolean}</boolean></sparql>\n`;
    }
    if (type === 'text/csv' || type === 'text/tab-separated-values') return `${answer.boolean}\n`;
    return JSON.stringify({ head: {}, boolean: answer.boolean });
  }
  const { vars, rows } = answer;
  switch (type) {
    case 'application/sparql-results+xml':
      return `<?xml version="1.0"?>\n<sparql xmlns="http://www.w3.org/2005/sparql-results#"><head>${vars.map((v) => `<variable name="${xmlText(v)}"/>`).join('')}</head><results>\n`
        + rows.map((r) => `<result>${bindings(vars, r).map(([v, t]) => `<binding name="${xmlText(v)}">${xmlTerm(t)}</binding>`).join('')}</result>\n`).join('')
        + '</results></sparql>\n';
    case 'text/csv':
      return [vars.map(csvField).join(','), ...rows.map((r) => vars.map((v) => csvField(r[v]?.value ?? '')).join(','))].join('\r\n') + '\r\n';
    case 'text/tab-separated-values':
      return [vars.map((v) => `?${v}`).join('\t'), ...rows.map((r) => vars.map((v) => { const t = r[v]; return t ? tsvTerm(t) : ''; }).join('\t'))].join('\n') + '\n';
    default:
      return JSON.stringify({ head: { vars }, results: { bindings: rows.map((r) => Object.fromEntries(bindings(vars, r).map(([v, t]) => [v, jsonTerm(t)]))) } });
  }
}
