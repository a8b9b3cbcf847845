// What the service knows of a model for its QMRF: the model's RDF and learned state, its
// algorithm in the catalogue, its endpoint and descriptor features, its training dataset,
// and the validations of it (or of its algorithm on its training dataset) in the store.
import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'n3';
import type { Deps } from '../../deps.ts';
import { MODEL_KIND, type ModelData } from '../../algorithms/apply.ts';
import { algorithmById } from '../../algorithms/catalogue.ts';
import type { TrainedModel } from '../../algorithms/learning/model.ts';
import { DESCRIPTORS } from '../../chem/descriptors.ts';
import { TOXICOPHORES } from '../../chem/toxicophores.ts';
import { readFeature } from '../../features/features.ts';
import { parsePaging } from '../../http/paging.ts';
import { DC, OT } from '../../rdf/vocab.ts';
import { listValidations, validationGraph } from '../../validation/validations.ts';
import { modelGraph, readModel } from '../models.ts';
import type { ModelInfo } from '../modelInfo.ts';

const { namedNode } = DataFactory;

export interface DescriptorFact { name: string; units?: string; description: string; source?: string }

export interface ValidationFact {
  uri: string;
  type: string;
  title: string;
  date?: string;
  /** The validated (training) dataset or the external test set. */
  dataset?: string;
  folds?: number;
  /** Figures by their OpenTox term (rSquare, percentCorrect...), in the store's order. */
  figures: Array<[string, number]>;
}

export interface QmrfFacts {
  info: ModelInfo;
  date?: string;
  /** Absent for a model kind this service did not train. */
  model?: TrainedModel;
  algorithm: { id?: string; title: string; description: string; params: Array<{ name: string; value: string; description?: string }> };
  endpoint?: { uri: string; title: string; units?: string };
  training: { uri: string; title?: string };
  descriptors: DescriptorFact[];
  validations: ValidationFact[];
}

const first = (quads: readonly RDF.Quad[], s: string, p: RDF.NamedNode) => quads.find((q) => q.subject.value === s && q.predicate.equals(p))?.object.value;
const localName = (iri: string) => iri.slice(Math.max(iri.lastIndexOf('#'), iri.lastIndexOf('/')) + 1);

async function descriptorsOf(deps: Deps, m: TrainedModel | undefined, independent: readonly string[]): Promise<DescriptorFact[]> {
  const rep = m?.representation;
  if (rep?.kind === 'descriptors') return DESCRIPTORS.filter((d) => rep.names.includes(d.name)).map((d) => ({ name: d.name, units: d.units, description: d.title, source: 'RDKit' }));
  if (rep?.kind === 'morgan') {
    const morgan = { name: `Morgan fingerprint (radius ${rep.radius}, ${rep.bits} bits)`, units: 'bit (0 or 1)', description: `${rep.bits} bits of a hashed circular (ECFP-like) fingerprint of radius ${rep.radius}, each 0 or 1`, source: 'RDKit' };
    const maccs = rep.maccs ? [{ name: 'MACCS keys (167 bits)', units: 'bit (0 or 1)', description: 'the 166 MACCS structural keys as RDKit computes them (bit 0 unused), each 0 or 1', source: 'RDKit' }] : [];
    const alerts = rep.toxicophores ? [{ name: `mutagenicity toxicophores (${TOXICOPHORES.length} bits)`, units: 'bit (0 or 1)', description: `1 where the structure matches the SMARTS of the alert, after Kazius, McGuire & Bursi, J. Med. Chem. 2005, 48, 312-320: ${TOXICOPHORES.map((t) => t.name).join('; ')}`, source: 'RDKit' }] : [];
    return [morgan, ...maccs, ...alerts];
  }
  const uris = rep?.kind === 'features' ? rep.uris : independent;
  return Promise.all(uris.map(async (uri) => {
    const f = await readFeature(deps, uri);
    return { name: f?.title ?? uri, units: f?.units, description: `feature ${uri}${f?.source ? `, computed by ${f.source}` : ''}`, source: f?.source };
  }));
}

async function validationFact(deps: Deps, uri: string): Promise<ValidationFact> {
  const g = await validationGraph(deps, uri);
  const stats = first(g, uri, OT.classificationStatistics) ?? first(g, uri, OT.regressionStatistics);
  const figures = stats === undefined ? [] : g.filter((q) => q.subject.value === stats && q.object.termType === 'Literal' && Number.isFinite(Number(q.object.value)))
    .map((q): [string, number] => [localName(q.predicate.value), Number(q.object.value)]);
  const folds = first(g, uri, OT.numFolds);
  return {
    uri,
    type: first(g, uri, OT.validationType) ?? 'validation',
    title: first(g, uri, DC.title) ?? uri,
    date: first(g, uri, DC.date),
    dataset: first(g, uri, OT.testDataset) ?? first(g, uri, OT.dataset),
    folds: folds === undefined ? undefined : Number(folds),
    figures,
  };
}

/** `keep` filters the validations a caller may read (AUTH_READ=owner). */
export async function qmrfFacts(deps: Deps, uri: string, keep?: (uri: string) => Promise<boolean>): Promise<QmrfFacts> {
  const [{ info, data }, graph] = await Promise.all([readModel(deps, uri), modelGraph(deps, uri)]);
  const model = info.kind === MODEL_KIND ? (data as ModelData).model : undefined;
  const id = /\/algorithm\/([^/?#]+)/.exec(info.algorithm)?.[1];
  const def = id === undefined ? undefined : algorithmById(decodeURIComponent(id));
  const endpointUri = info.dependentVariables[0];
  const endpoint = endpointUri === undefined ? undefined : await readFeature(deps, endpointUri);
  const trainingTitle = (await deps.store.match(namedNode(info.trainingDataset), DC.title, null, info.trainingDataset).catch(() => []))[0]?.object.value;
  const page = parsePaging({ pagesize: '100' }, deps.config);
  const lists = await Promise.all([
    listValidations(deps, page, { model: uri }, keep),
    listValidations(deps, page, { algorithm: info.algorithm, dataset: info.trainingDataset }, keep),
  ]);
  const uris = [...new Set(lists.flatMap((l) => l.uris))];
  return {
    info,
    date: first(graph, uri, DC.date),
    model,
    algorithm: {
      id: def?.id,
      title: def?.title ?? info.algorithm,
      description: def?.description ?? '',
      params: (info.parameters ?? []).map((p) => ({ name: p.name, value: String(p.value), description: def?.params.find((d) => d.name === p.name)?.description })),
    },
    endpoint: endpointUri === undefined ? undefined : { uri: endpointUri, title: endpoint?.title ?? model?.target.title ?? endpointUri, units: endpoint?.units },
    training: { uri: info.trainingDataset, title: trainingTitle },
    descriptors: await descriptorsOf(deps, model, info.independentVariables),
    validations: await Promise.all(uris.map((v) => validationFact(deps, v))),
  };
}
