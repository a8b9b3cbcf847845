// At every start the catalogue's descriptions are written as one graph per algorithm, so
// listing and ?type= queries (rdfs:subClassOf* over the ontology graphs) run in the store.
import type { Deps } from '../deps.ts';
import type { WriteOp } from '../store/api.ts';
import { ALGORITHMS, algorithmUri } from './catalogue.ts';
import { algorithmQuads } from './describe.ts';

export async function loadAlgorithms(deps: Deps): Promise<void> {
  const ops: WriteOp[] = ALGORITHMS.map((def) => {
    const uri = algorithmUri(deps, def.id);
    return { op: 'replace', graph: uri, quads: algorithmQuads(def, uri) };
  });
  await deps.store.commit(ops);
}
