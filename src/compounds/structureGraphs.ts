// Structure files kept in the store, for the remote mode (docs/engines.md: nothing shared
// but the engines): API processes and workers share no disk, so each file is a graph of
// its own, named by the file's path under a service URN that no base URI changes, holding
// the molfile as one literal. The compound's triples name the file by path either way.
import { DataFactory } from 'n3';
import type { Deps } from '../deps.ts';
import { NotFound } from '../errors.ts';
import { SVC } from '../rdf/vocab.ts';
import { bound, type WriteOp } from '../store/api.ts';

const { namedNode, quad, literal } = DataFactory;

const PREFIX = `${SVC.ns}structure/`;
const TEXT = SVC.term('structureText');
/** Files per update request: a bulk upload writes thousands. */
const FILES_PER_COMMIT = 200;

const graphOf = (rel: string): string => PREFIX + rel.split('/').map(encodeURIComponent).join('/');

export async function writeStructureGraphs(deps: Pick<Deps, 'store'>, files: ReadonlyArray<{ rel: string; text: string }>): Promise<void> {
  for (let i = 0; i < files.length; i += FILES_PER_COMMIT) {
    const ops: WriteOp[] = files.slice(i, i + FILES_PER_COMMIT).map((f) => {
      const g = graphOf(f.rel);
      // A new path for every file written (newStructurePath), so nothing is there to replace.
      return { op: 'add', graph: g, quads: [quad(namedNode(g), TEXT, literal(f.text))] };
    });
    await deps.store.commit(ops);
  }
}

export async function readStructureGraph(deps: Pick<Deps, 'store'>, rel: string): Promise<string> {
  const g = graphOf(rel);
  const found = (await deps.store.match(namedNode(g), TEXT, null, g))[0];
  if (!found) throw new NotFound(`structure ${rel} is missing from the store`);
  return found.object.value;
}

export async function removeStructureGraphs(deps: Pick<Deps, 'store'>, rels: readonly string[]): Promise<void> {
  if (rels.length > 0) await deps.store.commit(rels.map((rel) => ({ op: 'drop', graph: graphOf(rel) })));
}

/** Removes every structure of compound `id` (its files lie under `id/`). */
export async function removeCompoundGraphs(deps: Pick<Deps, 'store'>, id: number): Promise<void> {
  const graphs = (await deps.store.select('graphs-with-prefix', { prefix: `${PREFIX}${id}/` })).map((r) => bound(r, 'g'));
  if (graphs.length > 0) await deps.store.commit(graphs.map((graph) => ({ op: 'drop' as const, graph })));
}
