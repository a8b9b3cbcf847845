// The published JSON-LD context of application/json (served at CONTEXT_PATH): plain keys
// for the terms the service writes, so a JSON client reads `title` and `values` while a
// JSON-LD processor still gets the triples (JSON-LD 1.1 §4.1 term definitions).
import { DC, OT, OWL, PREFIXES, RDFS, SCHEMA, XSD } from './vocab.ts';

export const CONTEXT_PATH = '/context.jsonld';

export interface Term {
  /** The key in JSON. */
  key: string;
  iri: string;
  /** A literal of this datatype is written as a bare string (type coercion). */
  datatype?: string;
  /** Always an array, even for one value. */
  set?: boolean;
}

/** OpenTox properties by their local names (classes are reached through @vocab). */
const OT_PROPERTIES = Object.keys(OT).filter((k) => /^[a-z]/.test(k) && k !== 'ns' && k !== 'term');

/** Properties that hold lists by nature: arrays even when one value is present. */
const SETS = new Set(['dataEntry', 'values', 'parameters', 'contributor', 'sameAs', 'seeAlso', 'isA', 'independentVariables', 'dependentVariables', 'predictedVariables', 'errorCause', 'crossvalidationFold', 'confusionMatrixCell', 'prediction', 'warning']);

function terms(): Term[] {
  // A task's results are xsd:anyURI literals (SPEC §4.3): coerced, they read as strings.
  const out: Term[] = OT_PROPERTIES.map((k) => (k === 'resultURI' ? { key: k, iri: OT.ns + k, datatype: XSD.anyURI.value } : { key: k, iri: OT.ns + k }));
  out.push(
    { key: 'title', iri: DC.title.value }, { key: 'description', iri: DC.description.value },
    { key: 'creator', iri: DC.creator.value }, { key: 'contributor', iri: DC.contributor.value },
    { key: 'date', iri: DC.date.value, datatype: XSD.dateTime.value },
    { key: 'identifier', iri: DC.identifier.value, datatype: XSD.anyURI.value },
    { key: 'source', iri: DC.source.value },
    { key: 'label', iri: RDFS.label.value }, { key: 'comment', iri: RDFS.comment.value },
    { key: 'seeAlso', iri: RDFS.seeAlso.value }, { key: 'subClassOf', iri: RDFS.subClassOf.value },
    { key: 'sameAs', iri: OWL.sameAs.value },
    ...(['smiles', 'inChI', 'inChIKey', 'molecularFormula', 'molecularWeight'] as const).map((k) => ({ key: k, iri: SCHEMA[k].value })),
  );
  return out.map((t) => (SETS.has(t.key) ? { ...t, set: true } : t));
}

export const TERMS: readonly Term[] = terms();
export const TERM_BY_IRI: ReadonlyMap<string, Term> = new Map(TERMS.map((t) => [t.iri, t]));

/** The context document itself. Prefixes stay for keys and types outside the terms. */
export const JSON_CONTEXT: { '@context': Record<string, unknown> } = {
  '@context': {
    '@version': 1.1,
    '@vocab': OT.ns,
    id: '@id',
    type: '@type',
    included: '@included',
    ...PREFIXES,
    ...Object.fromEntries(TERMS.map((t) => {
      const def: Record<string, string> = { '@id': t.iri };
      if (t.datatype) def['@type'] = t.datatype;
      if (t.set) def['@container'] = '@set';
      return [t.key, def];
    })),
  },
};

/** Key for an IRI outside the terms: a prefixed name where a prefix fits (JSON-LD compact IRI). */
export function compactIri(iri: string): string {
  for (const [p, ns] of Object.entries(PREFIXES)) if (iri.startsWith(ns) && iri.length > ns.length) return `${p}:${iri.slice(ns.length)}`;
  return iri;
}

/** A class name under @vocab: ot: classes by their local names, others as prefixed names. */
export function typeName(iri: string): string {
  const local = iri.startsWith(OT.ns) ? iri.slice(OT.ns.length) : undefined;
  return local && /^[A-Za-z][\w-]*$/.test(local) && !(local in JSON_CONTEXT['@context']) ? local : compactIri(iri);
}
