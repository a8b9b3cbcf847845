// The features a model reads, in the order it reads them (its ot:independentVariables): the
// dataset's own features, or those it computes from each structure: RDKit descriptors (the
// features /algorithm/physchem makes, ot:hasSource that algorithm) or a Morgan fingerprint
// (one feature for the whole bit vector, ot:hasSource the learning algorithm that computes
// it, radius and bits in its title, so every model of that algorithm and fingerprint shares
// it). A feature per bit would put thousands of resources into every feature list and
// every owner-filtered query.
import type { Quad } from '@rdfjs/types';
import { DataFactory } from 'n3';
import { BO_NS, RDF, type OwnTerms } from '../../rdf/vocab.ts';
import { DESCRIPTORS } from '../../chem/descriptors.ts';
import { MACCS_BITS } from '../../chem/morgan.ts';
import { TOXICOPHORES } from '../../chem/toxicophores.ts';
import type { FeatureRequest } from '../io.ts';
import type { Representation } from './representation.ts';

/** Feature requests of the computed inputs (none for a model on the dataset's own features). */
export function inputFeatureRequests(rep: Representation, physchemUri: string, learnerUri: string): FeatureRequest[] {
  if (rep.kind === 'descriptors') {
    return DESCRIPTORS.filter((d) => rep.names.includes(d.name)).map((d) => ({
      title: d.title, type: 'numeric', source: physchemUri, units: d.units, sameAs: d.blueObelisk ? BO_NS + d.blueObelisk : undefined,
    }));
  }
  if (rep.kind === 'morgan') {
    const keys = rep.bits + (rep.maccs ? MACCS_BITS : 0);
    const maccs = rep.maccs ? ` then the ${MACCS_BITS} MACCS keys (key j is input ${rep.bits} + j)` : '';
    const alerts = rep.toxicophores ? ` then the ${TOXICOPHORES.length} mutagenicity toxicophores after Kazius et al. 2005 (alert j is input ${keys} + j)` : '';
    return [{ title: `Morgan fingerprint (radius ${rep.radius}, ${rep.bits} bits, bit j of the vector is input j)${maccs}${alerts}`, type: 'string', source: learnerUri }];
  }
  return [];
}

/** own:inputs: the independent variables as an rdf:List, cells named `{model}#input-{n}` (RDF triples have no order). */
export function inputListQuads(own: OwnTerms, model: string, features: readonly string[]): Quad[] {
  const { quad, namedNode } = DataFactory;
  const cell = (j: number) => namedNode(`${model}#input-${j + 1}`);
  if (features.length === 0) return [];
  const out = [quad(namedNode(model), own.inputs, cell(0))];
  features.forEach((f, j) => out.push(quad(cell(j), RDF.first, namedNode(f)), quad(cell(j), RDF.rest, j + 1 < features.length ? cell(j + 1) : RDF.nil)));
  return out;
}
