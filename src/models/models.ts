// The model resource: created by learning algorithms, listed, read and
// deleted here. The graph holds what a client reads (ot:Model with algorithm, training
// dataset, variables and parameters); the learned model itself is a JSON file under
// DATA_DIR/models (a graph of the store in the remote mode: tasks/sharedFiles.ts), read
// back when the model predicts, by whichever process runs the prediction.
import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'n3';
import type { Deps } from '../deps.ts';
import type { ModelInfo, NewModel } from './modelInfo.ts';
import { NotFound } from '../errors.ts';
import { DC, OT, RDF as RDFNS, XSD } from '../rdf/vocab.ts';
import { mintUri } from '../ids/mint.ts';
import type { Paging as Page } from '../http/paging.ts';
import { readShared, removeShared, writeShared } from '../tasks/sharedFiles.ts';
import { bound } from '../store/api.ts';
import { readablePage } from '../auth/readAccess.ts';

const { quad, namedNode, literal } = DataFactory;

/** The model's file, relative to DATA_DIR. */
const fileOf = (uri: string) => `models/${uri.slice(uri.lastIndexOf('/') + 1)}.json`;

function modelQuads(uri: string, m: NewModel): RDF.Quad[] {
  const s = namedNode(uri);
  const out: RDF.Quad[] = [
    quad(s, RDFNS.type, OT.Model),
    quad(s, DC.title, literal(m.title)),
    quad(s, DC.date, literal(new Date().toISOString(), XSD.dateTime)),
    quad(s, OT.algorithm, namedNode(m.algorithm)),
    quad(s, OT.trainingDataset, namedNode(m.trainingDataset)),
    ...m.independentVariables.map((f) => quad(s, OT.independentVariables, namedNode(f))),
    ...m.dependentVariables.map((f) => quad(s, OT.dependentVariables, namedNode(f))),
    ...m.predictedVariables.map((f) => quad(s, OT.predictedVariables, namedNode(f))),
  ];
  if (m.creator) out.push(quad(s, DC.creator, literal(m.creator)));
  (m.parameters ?? []).forEach((p, i) => {
    const param = namedNode(`${uri}/parameter/${i + 1}`);
    const value = typeof p.value === 'number' ? literal(String(p.value), Number.isInteger(p.value) ? XSD.int : XSD.double) : typeof p.value === 'boolean' ? literal(String(p.value), XSD.boolean) : literal(p.value);
    out.push(quad(s, OT.parameters, param), quad(param, RDFNS.type, OT.Parameter), quad(param, DC.title, literal(p.name)), quad(param, OT.paramValue, value));
  });
  return out;
}

/** A new model URI, for a model whose features must name it before it is stored. */
export const newModelUri = (deps: Deps): Promise<string> => mintUri(deps, 'model');

/** Stores a model built by a learning algorithm; answers its URI. */
export async function createModel(deps: Deps, m: NewModel): Promise<string> {
  const uri = m.uri ?? (await newModelUri(deps));
  // The file first (fsynced): a model visible in the store can always be loaded.
  await writeShared(deps, fileOf(uri), JSON.stringify({ kind: m.kind, data: m.data }));
  await deps.store.replaceGraph(uri, modelQuads(uri, m));
  return uri;
}

export async function modelGraph(deps: Deps, uri: string): Promise<RDF.Quad[]> {
  const quads = await deps.store.graph(uri);
  if (!quads.some((q) => q.subject.value === uri && q.predicate.equals(RDFNS.type) && q.object.equals(OT.Model))) throw new NotFound(`model ${uri} not found`);
  return quads;
}

/** The graphs of the models `uris`, in order: the RDF of a model list. */
export async function modelGraphs(deps: Deps, uris: readonly string[]): Promise<RDF.Quad[]> {
  return (await Promise.all(uris.map((u) => deps.store.graph(u)))).flat();
}

/** The model's description and its learned data. */
export async function readModel(deps: Deps, uri: string): Promise<{ info: ModelInfo; data: unknown }> {
  const quads = await modelGraph(deps, uri);
  const own = (p: RDF.NamedNode) => quads.filter((q) => q.subject.value === uri && q.predicate.equals(p)).map((q) => q.object.value);
  const stored = JSON.parse((await readShared(deps, fileOf(uri))).toString('utf8')) as { kind: string; data: unknown };
  const parameters = own(OT.parameters).map((p) => ({
    name: quads.find((q) => q.subject.value === p && q.predicate.equals(DC.title))?.object.value ?? '',
    value: quads.find((q) => q.subject.value === p && q.predicate.equals(OT.paramValue))?.object.value ?? '',
  }));
  const info: ModelInfo = {
    uri,
    title: own(DC.title)[0] ?? '',
    creator: own(DC.creator)[0],
    algorithm: own(OT.algorithm)[0] ?? '',
    trainingDataset: own(OT.trainingDataset)[0] ?? '',
    independentVariables: own(OT.independentVariables),
    dependentVariables: own(OT.dependentVariables),
    predictedVariables: own(OT.predictedVariables),
    parameters,
    kind: stored.kind,
  };
  return { info, data: stored.data };
}

export async function deleteModel(deps: Deps, uri: string): Promise<void> {
  await modelGraph(deps, uri);
  await deps.store.dropGraph(uri);
  await removeShared(deps, fileOf(uri));
}

export async function listModels(deps: Deps, page: Page, keep?: (uri: string) => Promise<boolean>): Promise<{ uris: string[]; more: boolean }> {
  return readablePage(page, async (limit, offset) => (await deps.store.select('model-list', { limit: { raw: limit }, offset: { raw: offset } })).map((r) => bound(r, 'm')), keep);
}
