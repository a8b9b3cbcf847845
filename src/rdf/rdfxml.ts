// RDF/XML writer with readable prefixes (ot, dc, rdf, rdfs, owl, xsd). Writes subject by
// subject so large graphs stream; every output parses in an independent RDF/XML parser
// (test/unit/rdf/roundtrip.test.ts checks it with rdfxml-streaming-parser).
import type * as RDF from '@rdfjs/types';
import { HttpError } from '../errors.ts';
import { ERR, PREFIXES, RDF as RDFNS } from './vocab.ts';

const NCNAME_START = /[A-Za-z_\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u02FF\u0370-\u037D\u037F-\u1FFF\u200C-\u200D\u2070-\u218F\u2C00-\u2FEF\u3001-\uD7FF\uF900-\uFDCF\uFDF0-\uFFFD]/;
const NCNAME_CHAR = /[-.0-9A-Za-z_\u00B7\u00C0-\u00D6\u00D8-\u00F6\u00F8-\u037D\u037F-\u1FFF\u200C-\u200D\u203F-\u2040\u2070-\u218F\u2C00-\u2FEF\u3001-\uD7FF\uF900-\uFDCF\uFDF0-\uFFFD]/;
// Characters XML 1.0 cannot carry at all; RDF/XML has no escape for them.
const XML_INVALID = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

/** Every character either form of escapeXml changes: most text (IRIs, numbers) has none. */
const NEEDS_ESCAPE = /[\u0000-\u001F&<>"\uFFFE\uFFFF]/;

export function escapeXml(text: string, attr = false): string {
  if (!NEEDS_ESCAPE.test(text)) return text;
  let out = text.replace(XML_INVALID, '\uFFFD').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  if (attr) out = out.replace(/"/g, '&quot;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;');
  else out = out.replace(/\r/g, '&#13;');
  return out;
}

/** Splits an IRI into namespace + local name where the local name is a valid NCName. */
function splitIri(iri: string): [string, string] | undefined {
  let i = iri.length;
  while (i > 0 && NCNAME_CHAR.test(iri[i - 1]!)) i--;
  while (i < iri.length && !NCNAME_START.test(iri[i]!)) i++;
  if (i >= iri.length || i === 0) return undefined;
  return [iri.slice(0, i), iri.slice(i)];
}

/** IRIs whose split a writer remembers: a stream writes the same few predicates and types again and again. */
const SPLITS_KEPT = 1000;

export class RdfXmlWriter {
  private readonly prefixOf = new Map<string, string>();
  private readonly splits = new Map<string, [string, string] | undefined>();
  private extra = 0;

  constructor(prefixes: Record<string, string> = PREFIXES) {
    for (const [p, ns] of Object.entries(prefixes)) this.prefixOf.set(ns, p);
  }

  header(): string {
    const decls = [...this.prefixOf].map(([ns, p]) => `\n    xmlns:${p}="${escapeXml(ns, true)}"`).join('');
    return `<?xml version="1.0" encoding="UTF-8"?>\n<rdf:RDF${decls}>\n`;
  }

  footer(): string {
    return '</rdf:RDF>\n';
  }

  /**
   * A qualified name for `iri`. A namespace without a prefix gets one, declared on the
   * subject element being written (collected in `decls`), so streaming needs no second pass.
   */
  private split(iri: string): [string, string] | undefined {
    if (this.splits.has(iri)) return this.splits.get(iri);
    const split = splitIri(iri);
    if (this.splits.size < SPLITS_KEPT) this.splits.set(iri, split);
    return split;
  }

  private qname(iri: string, decls: string[]): string {
    const split = this.split(iri);
    // RDF/XML has no syntax for a predicate whose IRI ends in no XML name (e.g. ".../p/123").
    if (!split) {
      throw new HttpError(406, ERR.NotAcceptable, `cannot write <${iri}> as an RDF/XML property: its IRI does not end in an XML name`, {
        details: 'RDF/XML has no syntax for such a property; ask for text/turtle, application/n-triples or application/ld+json.',
      });
    }
    const [ns, local] = split;
    let p = this.prefixOf.get(ns);
    if (!p) {
      p = `ns${this.extra++}`;
      this.prefixOf.set(ns, p);
      decls.push(` xmlns:${p}="${escapeXml(ns, true)}"`);
    }
    return `${p}:${local}`;
  }

  private nodeAttr(term: RDF.Term, attr: 'about' | 'resource'): string {
    if (term.termType === 'BlankNode') return `rdf:nodeID="${this.nodeId(term.value)}"`;
    return `rdf:${attr}="${escapeXml(term.value, true)}"`;
  }

  /** One rdf:Description (or typed node) for `subject` with all its triples. */
  subject(subject: RDF.Term, triples: readonly RDF.Quad[]): string {
    const typeTriple = triples.find((t) => t.predicate.value === RDFNS.type.value && t.object.termType === 'NamedNode' && this.split(t.object.value));
    const ns0 = this.extra;
    const decls: string[] = [];
    const element = typeTriple ? this.qname(typeTriple.object.value, decls) : 'rdf:Description';
    let body = '';
    for (const t of triples) {
      if (t === typeTriple) continue;
      const name = this.qname(t.predicate.value, decls);
      const o = t.object;
      if (o.termType === 'Literal') {
        let attrs = '';
        if (o.language) attrs = ` xml:lang="${escapeXml(o.language, true)}"`;
        else if (o.datatype && o.datatype.value !== 'http://www.w3.org/2001/XMLSchema#string') attrs = ` rdf:datatype="${escapeXml(o.datatype.value, true)}"`;
        body += `    <${name}${attrs}>${escapeXml(o.value)}</${name}>\n`;
      } else {
        body += `    <${name} ${this.nodeAttr(o, 'resource')}/>\n`;
      }
    }
    // An xmlns on an element is in scope only within it: forget this subject's own ones.
    if (this.extra !== ns0) this.forgetFrom(ns0);
    return `  <${element}${decls.join('')} ${this.nodeAttr(subject, 'about')}>\n${body}  </${element}>\n`;
  }

  /**
   * rdf:nodeID must be an XML name: letters and digits are kept, every other character
   * becomes `_hex_`, so distinct labels never meet. Computed, not remembered: a map of every
   * label written held two million entries by the end of a 100,000-row dataset stream.
   */
  private nodeId(label: string): string {
    if (/^[A-Za-z0-9]*$/.test(label)) return `b${label}`;
    return `b${label.replace(/[^A-Za-z0-9]/gu, (c) => `_${c.codePointAt(0)!.toString(16)}_`)}`;
  }

  private forgetFrom(n: number): void {
    for (const [ns, p] of this.prefixOf) if (/^ns\d+$/.test(p) && Number(p.slice(2)) >= n) this.prefixOf.delete(ns);
    this.extra = n;
  }
}

/** Groups triples by subject, keeping first-seen subject order. */
export function groupBySubject(quads: Iterable<RDF.Quad>): Map<string, { subject: RDF.Term; triples: RDF.Quad[] }> {
  const groups = new Map<string, { subject: RDF.Term; triples: RDF.Quad[] }>();
  for (const q of quads) {
    // An IRI never starts with "_:" (RFC 3987: a scheme starts with a letter), so only blank
    // nodes need a mark, and the commonest key is the IRI itself, with no new string.
    const key = q.subject.termType === 'BlankNode' ? `_:${q.subject.value}` : q.subject.value;
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { subject: q.subject, triples: [] }));
    g.triples.push(q);
  }
  return groups;
}

export function toRdfXml(quads: Iterable<RDF.Quad>, prefixes?: Record<string, string>): string {
  const w = new RdfXmlWriter(prefixes);
  let out = w.header();
  for (const { subject, triples } of groupBySubject(quads).values()) out += w.subject(subject, triples);
  return out + w.footer();
}
