// What a feature is: ot:Feature plus one of ot:NumericFeature,
// ot:NominalFeature, ot:StringFeature, with title, units, sameAs, source and, for nominal
// features, the accepted values. Converts between that record and its triples.
import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'n3';
import { DC, OT, OWL, RDF as RDFNS, XSD } from '../rdf/vocab.ts';
import { isValidIri } from '../store/binder.ts';

const { quad, namedNode, literal } = DataFactory;

export type FeatureType = 'numeric' | 'nominal' | 'string';

/** A feature as algorithms and datasets use it. */
export interface FeatureSpec {
  title: string;
  type: FeatureType;
  /** URI of the algorithm, model or dataset that produced it (ot:hasSource). */
  source?: string;
  units?: string;
  sameAs?: string;
  /** Accepted values of a nominal feature (ot:acceptValue). */
  acceptValues?: string[];
  creator?: string;
}

export interface FeatureInfo extends FeatureSpec {
  uri: string;
}

export const TYPE_CLASS: Record<FeatureType, RDF.NamedNode> = {
  numeric: OT.NumericFeature,
  nominal: OT.NominalFeature,
  string: OT.StringFeature,
};

const asObject = (value: string): RDF.Quad_Object => (isValidIri(value) ? namedNode(value) : literal(value));

/** The triples of feature `uri` in its own graph (graph term left default). */
export function featureQuads(uri: string, spec: FeatureSpec): RDF.Quad[] {
  const s = namedNode(uri);
  const out: RDF.Quad[] = [
    quad(s, RDFNS.type, OT.Feature),
    quad(s, RDFNS.type, TYPE_CLASS[spec.type]),
    quad(s, DC.title, literal(spec.title)),
  ];
  if (spec.units !== undefined) out.push(quad(s, OT.units, literal(spec.units)));
  if (spec.source) out.push(quad(s, OT.hasSource, asObject(spec.source)));
  if (spec.sameAs) out.push(quad(s, OWL.sameAs, asObject(spec.sameAs)));
  if (spec.creator) out.push(quad(s, DC.creator, literal(spec.creator)));
  for (const v of spec.acceptValues ?? []) out.push(quad(s, OT.acceptValue, literal(v, XSD.string)));
  return out;
}

/** Type of a feature from its rdf:types (nominal wins over string: hamster data has both). */
export function typeOfClasses(classes: readonly string[]): FeatureType | undefined {
  if (classes.includes(OT.NumericFeature.value)) return 'numeric';
  if (classes.includes(OT.NominalFeature.value)) return 'nominal';
  if (classes.includes(OT.StringFeature.value)) return 'string';
  return undefined;
}

/** Reads the feature described by `subject` in `quads`; type undefined when not stated. */
export function featureOfQuads(quads: readonly RDF.Quad[], subject: RDF.Term): Omit<FeatureInfo, 'type'> & { type?: FeatureType } {
  const own = quads.filter((q) => q.subject.equals(subject));
  const first = (p: RDF.NamedNode) => own.find((q) => q.predicate.equals(p))?.object.value;
  const classes = own.filter((q) => q.predicate.equals(RDFNS.type)).map((q) => q.object.value);
  const dcType = first(DC.type);
  const stated = typeOfClasses(classes) ?? (dcType === XSD.string.value ? 'string' : dcType && /#(double|float|decimal|int|integer|long)$/.test(dcType) ? 'numeric' : undefined);
  const accept = own.filter((q) => q.predicate.equals(OT.acceptValue)).map((q) => q.object.value);
  return {
    uri: subject.value,
    title: first(DC.title) ?? (subject.termType === 'NamedNode' ? subject.value : 'feature'),
    type: stated,
    units: first(OT.units),
    source: first(OT.hasSource),
    sameAs: first(OWL.sameAs),
    creator: first(DC.creator),
    acceptValues: accept.length > 0 ? accept.sort() : undefined,
  };
}

/** Subjects typed as a feature (ot:Feature or one of its kinds). */
export function featureSubjects(quads: readonly RDF.Quad[]): RDF.Term[] {
  const kinds = new Set([OT.Feature.value, OT.NumericFeature.value, OT.NominalFeature.value, OT.StringFeature.value]);
  const seen = new Map<string, RDF.Term>();
  for (const q of quads) {
    if (q.predicate.equals(RDFNS.type) && kinds.has(q.object.value)) seen.set(`${q.subject.termType}|${q.subject.value}`, q.subject);
  }
  return [...seen.values()];
}
