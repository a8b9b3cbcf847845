// The RDF description of an algorithm (SPEC §2.1): ot:Algorithm with its Dublin Core
// fields, owl:sameAs, its types both as ot:isA and as rdf:type, and one ot:Parameter per
// parameter with its scope and typed value (the default, or the exact value of a
// parameterised algorithm; the empty string when there is none).
import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'n3';
import { ATYPE, DC, OT, OWL, RDF as RDFNS, XSD } from '../rdf/vocab.ts';
import { allowedRange, formatParam, type ParamDef, type ParamValue, type ParamValues } from './params.ts';
import type { AlgorithmDef } from './types.ts';

const { quad, namedNode, literal } = DataFactory;

export const CREATOR = 'OpenTox service algorithms (TypeScript, RDKit, openchemlib)';
export const CONTRIBUTORS = ['RDKit (descriptors, fingerprints, SMARTS)', 'openchemlib (properties, standardisation, fragments)'];
/** Date of this catalogue version (dc:date of the generic algorithms). */
export const CATALOGUE_DATE = '2026-11-22T00:00:00Z';

function typedValue(p: ParamDef, value: ParamValue | undefined): RDF.Literal {
  if (value === undefined) return literal('');
  const text = formatParam(value);
  switch (p.type) {
    case 'boolean': return literal(text, XSD.boolean);
    case 'int': return literal(text, XSD.int);
    case 'float': return literal(text, XSD.double);
    default: return literal(text, XSD.string);
  }
}

export interface DescribeOptions {
  /** Exact values of a parameterised algorithm; absent for the generic one. */
  values?: ParamValues;
  /** The generic algorithm a parameterised one derives from. */
  parent?: string;
  date?: string;
}

export function algorithmQuads(def: AlgorithmDef, uri: string, options: DescribeOptions = {}): RDF.Quad[] {
  const a = namedNode(uri);
  const g = namedNode(uri);
  const q = (s: RDF.Quad_Subject, p: RDF.NamedNode, o: RDF.Quad_Object) => quad(s, p, o, g);
  const out: RDF.Quad[] = [
    q(a, RDFNS.type, OT.Algorithm),
    q(a, DC.identifier, literal(uri, XSD.anyURI)),
    q(a, DC.title, literal(options.parent ? `${def.title} (parameterised)` : def.title)),
    q(a, DC.description, literal(def.description)),
    q(a, DC.creator, literal(CREATOR)),
    ...CONTRIBUTORS.map((c) => q(a, DC.contributor, literal(c))),
    q(a, DC.date, literal(options.date ?? CATALOGUE_DATE, XSD.dateTime)),
    ...(def.sameAs ?? []).map((s) => q(a, OWL.sameAs, namedNode(s))),
    ...def.types.flatMap((t) => [q(a, OT.isA, t), q(a, RDFNS.type, t)]),
  ];
  if (def.supervised) out.push(q(a, OT.isA, ATYPE.Supervised));
  if (options.parent) out.push(q(a, DC.source, namedNode(options.parent)));
  for (const p of def.params) {
    const node = namedNode(`${uri}#parameter-${encodeURIComponent(p.name)}`);
    const value = options.values ? options.values[p.name] : p.default;
    out.push(
      q(a, OT.parameters, node),
      q(node, RDFNS.type, OT.Parameter),
      q(node, DC.title, literal(p.name)),
      q(node, DC.description, literal(`${p.description} (${p.type}; ${allowedRange(p)})`)),
      q(node, OT.paramScope, literal(p.mandatory ? 'mandatory' : 'optional')),
      q(node, OT.paramValue, typedValue(p, value)),
    );
  }
  return dedupe(out);
}

function dedupe(quads: RDF.Quad[]): RDF.Quad[] {
  const seen = new Set<string>();
  return quads.filter((x) => {
    const key = `${x.subject.value} ${x.predicate.value} ${x.object.termType}:${x.object.value}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
