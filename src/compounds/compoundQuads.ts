// Triples of a compound: what is stored (identity, structure file, provenance) and what
// GET answers as RDF (ot:Compound with its identifiers as feature values).
import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'n3';
import type { Deps } from '../deps.ts';
import { uriOf } from '../deps.ts';
import type { ParsedStructure } from '../chem/index.ts';
import { DC, OT, OWL, RDF as RDFNS, SCHEMA, SVC, XSD } from '../rdf/vocab.ts';

const { quad, namedNode, literal, blankNode } = DataFactory;

/** Stored quads of compound `uri` (its own graph). */
export function compoundQuads(uri: string, id: number, s: ParsedStructure, file: string | undefined, owner?: string): RDF.Quad[] {
  const c = namedNode(uri);
  const out = [
    quad(c, RDFNS.type, OT.Compound),
    quad(c, SVC.number, literal(String(id), XSD.integer)),
    quad(c, SCHEMA.smiles, literal(s.smiles)),
    quad(c, SCHEMA.inChI, literal(s.inchi)),
    quad(c, SCHEMA.inChIKey, literal(s.inchiKey)),
    quad(c, SCHEMA.molecularFormula, literal(s.formula)),
    quad(c, SCHEMA.molecularWeight, literal(String(s.molecularWeight), XSD.double)),
    quad(c, DC.date, literal(new Date().toISOString(), XSD.dateTime)),
  ];
  if (file) out.push(quad(c, SVC.structureFile, literal(file)));
  if (owner) out.push(quad(c, OT.owner, literal(owner)));
  return out;
}

/** The identifier features every compound carries values of, with stable URIs. */
export const IDENTITY_FEATURES = [
  { key: 'smiles', local: 'compound-smiles', title: 'SMILES', sameAs: 'SMILES', type: OT.StringFeature, units: '' },
  { key: 'inchi', local: 'compound-inchi', title: 'InChI (standard)', sameAs: 'InChI_std', type: OT.StringFeature, units: '' },
  { key: 'inchiKey', local: 'compound-inchikey', title: 'InChIKey (standard)', sameAs: 'InChIKey_std', type: OT.StringFeature, units: '' },
  { key: 'formula', local: 'compound-formula', title: 'Molecular formula', sameAs: 'MolecularFormula', type: OT.StringFeature, units: '' },
  { key: 'molecularWeight', local: 'compound-mw', title: 'Molecular weight', sameAs: 'MolecularWeight', type: OT.NumericFeature, units: 'g/mol' },
] as const;

export type IdentityKey = (typeof IDENTITY_FEATURES)[number]['key'];

export const identityFeatureUri = (deps: Pick<Deps, 'config'>, key: IdentityKey): string =>
  uriOf(deps.config, `/feature/${IDENTITY_FEATURES.find((f) => f.key === key)!.local}`);

/** Graphs of the identifier features (created once per store and base URI). */
export function identityFeatureOps(deps: Pick<Deps, 'config'>): Array<{ graph: string; quads: RDF.Quad[] }> {
  return IDENTITY_FEATURES.map((f) => {
    const uri = identityFeatureUri(deps, f.key);
    const s = namedNode(uri);
    const quads = [
      quad(s, RDFNS.type, OT.Feature),
      quad(s, RDFNS.type, f.type),
      quad(s, DC.title, literal(f.title)),
      quad(s, OT.hasSource, namedNode(uriOf(deps.config, '/compound'))),
      quad(s, OWL.sameAs, OT.term(f.sameAs)),
    ];
    if (f.units) quads.push(quad(s, OT.units, literal(f.units)));
    return { graph: uri, quads };
  });
}

export interface CompoundIdentity {
  smiles: string;
  inchi: string;
  inchiKey: string;
  formula: string;
  molecularWeight: number;
}

/** GET as RDF: the compound, a data entry with its identifiers as feature values, and the features. */
export function compoundRepresentation(deps: Pick<Deps, 'config'>, uri: string, identity: CompoundIdentity): RDF.Quad[] {
  const c = namedNode(uri);
  const entry = blankNode();
  const out: RDF.Quad[] = [quad(c, RDFNS.type, OT.Compound), quad(entry, RDFNS.type, OT.DataEntry), quad(entry, OT.compound, c)];
  for (const f of IDENTITY_FEATURES) {
    const raw = identity[f.key];
    if (raw === '' || raw === undefined) continue;
    const value = blankNode();
    out.push(
      quad(entry, OT.values, value),
      quad(value, RDFNS.type, OT.FeatureValue),
      quad(value, OT.feature, namedNode(identityFeatureUri(deps, f.key))),
      quad(value, OT.value, typeof raw === 'number' ? literal(String(raw), XSD.double) : literal(raw)),
    );
  }
  for (const op of identityFeatureOps(deps)) out.push(...op.quads);
  return out;
}
