// One data entry of a dataset (<D>/entry/<n>), the URI that ot:dataEntry names: it
// dereferences to the entry with its compound and values in the standard
// ot:DataEntry / ot:values / ot:FeatureValue structure (as a whole-dataset GET writes it),
// with the definitions of the features it has values of.
import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'n3';
import type { Deps } from '../deps.ts';
import { NotFound } from '../errors.ts';
import { OT, RDF as RDFNS } from '../rdf/vocab.ts';
import { entryUri, requireDataset } from './datasetLayout.ts';
import { featureDefinitions } from './datasetOutput.ts';

const { quad, namedNode, blankNode } = DataFactory;

export async function entryQuads(deps: Deps, dataset: string, n: string): Promise<RDF.Quad[]> {
  await requireDataset(deps, dataset);
  const uri = /^[1-9][0-9]*$/.test(n) ? entryUri(dataset, Number(n)) : undefined;
  const entry = uri ? namedNode(uri) : undefined;
  // Only linked entries exist for clients: an interrupted upload's are not part of the dataset.
  if (!entry || (await deps.store.match(namedNode(dataset), OT.dataEntry, entry, dataset)).length === 0) throw new NotFound(`no entry ${uri ?? n} in dataset ${dataset}`);
  const stored = await deps.store.match(entry, null, null, dataset);
  const compound = stored.find((q) => q.predicate.equals(OT.compound))?.object;
  const out: RDF.Quad[] = [quad(namedNode(dataset), OT.dataEntry, entry), quad(entry, RDFNS.type, OT.DataEntry)];
  if (compound) out.push(quad(entry, OT.compound, compound as RDF.NamedNode), quad(compound as RDF.NamedNode, RDFNS.type, OT.Compound));
  const features: string[] = [];
  // The entry's own nodes (fragments of its URI, e.g. a prediction's neighbours) come whole.
  const nodes = stored.filter((q) => q.object.termType === 'NamedNode' && q.object.value.startsWith(`${uri}#`));
  for (const q of nodes) out.push(q, ...(await deps.store.match(q.object as RDF.NamedNode, null, null, dataset)));
  for (const q of stored) {
    if (q.predicate.equals(OT.compound) || q.predicate.equals(RDFNS.type) || nodes.includes(q)) continue;
    const fv = blankNode();
    features.push(q.predicate.value);
    out.push(quad(entry, OT.values, fv), quad(fv, RDFNS.type, OT.FeatureValue), quad(fv, OT.feature, q.predicate as RDF.NamedNode), quad(fv, OT.value, q.object as RDF.Literal));
  }
  return [...out, ...(await featureDefinitions(deps, dataset, [...new Set(features)]))];
}
