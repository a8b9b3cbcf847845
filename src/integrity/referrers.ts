// Who uses a resource (docs/integrity.md): datasets hold compounds and features in their
// entries (SPEC §3.3 ot:DataEntry, ot:FeatureValue); models name their training dataset
// and their independent, dependent and predicted variables (SPEC §3.5). A delete or a
// change that would alter what those referrers mean is refused with 409 unless forced.
// Provenance (dc:source, ot:hasSource, dc:creator) records history, not a dependency.
import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'n3';
import type { Deps } from '../deps.ts';
import { BadRequest, Conflict } from '../errors.ts';
import { ERR, OT, RDF as RDFNS } from '../rdf/vocab.ts';

const { namedNode } = DataFactory;

export interface Referrer {
  /** The dataset or model that refers. */
  uri: string;
  /** The property through which it refers, as a CURIE (ot:compound, ot:trainingDataset...). */
  via: string;
}

/** Graphs holding `s p o`, except the resource's own graph and those under it (conformers, entries). */
async function graphsWith(deps: Deps, s: RDF.Term | null, p: RDF.Term, o: RDF.Term | null, own: string, via: string): Promise<Referrer[]> {
  const seen = new Set<string>();
  for (const q of await deps.store.match(s, p, o, null)) {
    const g = q.graph.value;
    if (g === own || g.startsWith(own + '/') || seen.has(g)) continue;
    seen.add(g);
  }
  return [...seen].map((uri) => ({ uri, via }));
}

/** Datasets with an entry of this compound. */
export const compoundReferrers = (deps: Deps, compound: string): Promise<Referrer[]> =>
  graphsWith(deps, null, OT.compound, namedNode(compound), compound, 'ot:compound');

/** Datasets with a column of this feature, and models using it as a variable. */
export async function featureReferrers(deps: Deps, feature: string): Promise<Referrer[]> {
  const f = namedNode(feature);
  // Every dataset copies the type of each of its features into its graph (datasets.ts writeEntries).
  return [
    ...(await graphsWith(deps, f, RDFNS.type, OT.Feature, feature, 'ot:feature')),
    ...(await graphsWith(deps, null, OT.independentVariables, f, feature, 'ot:independentVariables')),
    ...(await graphsWith(deps, null, OT.dependentVariables, f, feature, 'ot:dependentVariables')),
    ...(await graphsWith(deps, null, OT.predictedVariables, f, feature, 'ot:predictedVariables')),
  ];
}

/** Models trained on this dataset. */
export const datasetReferrers = (deps: Deps, dataset: string): Promise<Referrer[]> =>
  graphsWith(deps, null, OT.trainingDataset, namedNode(dataset), dataset, 'ot:trainingDataset');

/** The value of ?force=: true or false (absent is false); anything else is a 400. */
export function forceOf(query: Record<string, string | string[] | undefined>): boolean {
  const raw = query.force;
  if (raw === undefined || raw === 'false') return false;
  if (raw === 'true') return true;
  throw new BadRequest(`force must be true or false, got ${JSON.stringify(raw)}`, { code: ERR.InvalidParameter });
}

const SHOWN = 10;

/** 409 ResourceInUse naming the referrers of `uri`, unless there are none or `force` is set. */
export function refuseIfReferenced(uri: string, action: string, referrers: readonly Referrer[], force: boolean): void {
  if (referrers.length === 0 || force) return;
  const named = referrers.slice(0, SHOWN).map((r) => `${r.uri} (${r.via})`).join(', ');
  const more = referrers.length > SHOWN ? ` and ${referrers.length - SHOWN} more` : '';
  throw new Conflict(`cannot ${action} ${uri}: it is used by ${named}${more}`, {
    code: ERR.ResourceInUse,
    details: 'Delete or change the referrers first, or repeat the request with ?force=true to do it anyway (they then refer to what you changed or removed). See docs/integrity.md.',
  });
}
