// Applying an algorithm (SPEC §2.1, §4.1): load the dataset, run, and turn the result into
// resources — a dataset (descriptors, mining, cleanup, normalisation), feature URIs
// (selection) or a model (learning). Every feature created has ot:hasSource = the URI of
// the algorithm that ran, parameterised when parameters were given (rule 3); a model's
// predicted features have the model as their source.
import { checkAgainstData } from './sizeLimits.ts';
import { BadRequest, HttpError, InternalError } from '../errors.ts';
import type { Quad } from '@rdfjs/types';
import { DataFactory } from 'n3';
import { ERR, type OwnTerms } from '../rdf/vocab.ts';
import { neighbourOutputQuads, neighbourOutputUri } from '../models/neighbours.ts';
import type { NeighbourOutputInfo } from '../models/predictors.ts';
import type { AlgorithmIO, FeatureRequest } from './io.ts';
import type { DatasetRef } from '../datasets/loadedDataset.ts';
import { validationQuads } from './learning/validationQuads.ts';
import { formatParam, type ParamValues } from './params.ts';
import { columnIndex, entryAt, type Cell, type Table } from './table.ts';
import type { AlgorithmDef, FeaturesResult, ModelResult, RunInput, RunResult, TableResult } from './types.ts';
import type { TrainedModel } from './learning/model.ts';
import type { FeatureCalculation } from './learning/representation.ts';
import { conformalFeatures, conformalQuads, type ConformalOutputs } from './learning/conformalOutputs.ts';
import { inputFeatureRequests, inputListQuads } from './learning/inputFeatures.ts';

export interface ApplyParams {
  algorithmUri: string;
  values: ParamValues;
  dataset: DatasetRef;
  predictionFeature?: string;
  datasetService?: string;
  /** The parameters the client sent: those bounded by the data are checked on it (sizeLimits.ts). */
  sent?: string[];
}

export interface ApplyContext {
  signal?: AbortSignal;
  progress?: (percent: number) => void;
  subjectid?: string;
  /** Runs the algorithm itself (in a worker thread under the task engine); in process by default. */
  runner?: (def: AlgorithmDef, input: RunInput) => Promise<RunResult>;
}

/** Kind under which model predictions are registered. */
export const MODEL_KIND = 'opentox-algorithms';

/**
 * What a model file holds: the trained model, the features its predictions fill and, for
 * read-across, its neighbour output (models/neighbours.ts). Models stored before the
 * neighbours were nodes list a string feature of them among their predicted variables;
 * it is left empty.
 */
export interface ModelData {
  model: TrainedModel;
  predicted: { value: string; confidence?: string; inDomain?: string; conformal?: ConformalOutputs };
  neighbours?: NeighbourOutputInfo;
}

export async function applyAlgorithm(io: AlgorithmIO, def: AlgorithmDef, p: ApplyParams, ctx: ApplyContext = {}): Promise<string[]> {
  const table = await io.load(p.dataset, { subjectid: ctx.subjectid, signal: ctx.signal, predictionFeature: p.predictionFeature });
  let target: number | undefined;
  if (p.predictionFeature) {
    target = columnIndex(table, p.predictionFeature);
    if (target < 0) throw new BadRequest(`prediction_feature ${p.predictionFeature} is not a feature of dataset ${p.dataset.uri}`, { code: ERR.PredictionFeatureNotInDataset });
  }
  ctx.progress?.(10);
  const progress = ctx.progress && ((v: number) => ctx.progress!(10 + 0.7 * v));
  const input: RunInput = { table, params: p.values, target, algorithmUri: p.algorithmUri, signal: ctx.signal, progress };
  def.checkInput?.(input);
  // A remote dataset's size is known only now (a local one was checked before the task).
  if (p.sent && p.predictionFeature && def.learns) checkAgainstData(def.types, def.params, p.values, p.sent, table, p.predictionFeature, { asked: p.values.task as string | undefined });
  const result = await runOrExplain(def, input, ctx);
  ctx.signal?.throwIfAborted();
  ctx.progress?.(80);
  const publish = async (uri: string) => [p.datasetService ? await io.publish(uri, p.datasetService, ctx.subjectid) : uri];
  switch (result.kind) {
    case 'selection': return result.featureUris;
    case 'features': return publish(await featuresDataset(io, def, p, table, result));
    case 'table': return publish(await tableDataset(io, def, p, result));
    case 'model': return [await storeModel(io, def, p, table, result)];
    case 'conformers': return publish(await conformersDataset(io, def, p, table, result.count, ctx));
  }
}

/**
 * Runs the algorithm. A learner that fails answers 500 with the reason (SPEC §4.1: "model
 * building error"); a learner that refuses its input (a 4xx, e.g. a single class) and every
 * other algorithm keep their error's status, so the client learns the fault is in its data.
 */
async function runOrExplain(def: AlgorithmDef, input: RunInput, ctx: ApplyContext): Promise<RunResult> {
  try {
    return ctx.runner ? await ctx.runner(def, input) : await def.run(input);
  } catch (e) {
    if (!def.learns || ctx.signal?.aborted || (e instanceof HttpError && e.status < 500)) throw e;
    throw new InternalError(`building a ${def.title} model failed: ${(e as Error).message}`, { code: ERR.InternalServerError, cause: e });
  }
}

async function featuresDataset(io: AlgorithmIO, def: AlgorithmDef, p: ApplyParams, table: Table, result: FeaturesResult): Promise<string> {
  const created = await io.features(result.columns.map((c): FeatureRequest => ({
    title: c.title, type: c.numeric ? 'numeric' : 'string', source: p.algorithmUri, units: c.units, sameAs: c.sameAs,
  })));
  return io.dataset({
    title: `${def.title} of ${p.dataset.uri}`,
    source: p.algorithmUri,
    compounds: table.compounds,
    features: [...table.columns.map((c) => c.uri), ...created],
    // Each row joined as it is written, not the whole table at once.
    values: { length: table.values.length, at: (i) => [...entryAt(table.values, i, 'row'), ...entryAt(result.values, i, 'result row')] },
  });
}

async function tableDataset(io: AlgorithmIO, def: AlgorithmDef, p: ApplyParams, result: TableResult): Promise<string> {
  const t = result.table;
  const fresh = t.columns.map((c, j) => (c.uri === '' || result.created?.includes(j) ? j : -1)).filter((j) => j >= 0);
  const uris = await io.features(fresh.map((j): FeatureRequest => {
    const c = t.columns[j]!; // fresh holds positions of t.columns
    return { title: c.title, type: c.numeric ? 'numeric' : 'string', source: p.algorithmUri, units: c.units };
  }));
  const features = t.columns.map((c, j) => (fresh.includes(j) ? entryAt(uris, fresh.indexOf(j), 'feature URI') : c.uri));
  const missing = t.compounds.flatMap((c, i) => (c === '' ? [i] : []));
  const made = await io.compounds(missing.map((i) => entryAt(t.smiles, i, 'SMILES')));
  const compounds = [...t.compounds];
  missing.forEach((i, k) => { compounds[i] = made[k] ?? ''; });
  const keep = compounds.flatMap((c, i) => (c ? [i] : []));
  const warnings = compounds.flatMap((c, i) => (c ? [] : [`row ${i + 1}: structure ${t.smiles[i]} could not be stored as a compound`]));
  return io.dataset({
    title: `${def.title} of ${p.dataset.uri}`,
    source: p.algorithmUri,
    compounds: keep.map((i) => compounds[i]!), // keep holds positions of compounds
    features,
    values: keep.map((i) => entryAt(t.values, i, 'row') as Cell[]),
    warnings,
  });
}

/** One row per generated conformer, carrying its compound's values (SPEC §2.3). */
async function conformersDataset(io: AlgorithmIO, def: AlgorithmDef, p: ApplyParams, table: Table, count: number, ctx: ApplyContext): Promise<string> {
  const compounds: string[] = [];
  const values: Cell[][] = [];
  const warnings: string[] = [];
  for (let i = 0; i < table.compounds.length; i++) {
    ctx.signal?.throwIfAborted();
    const compound = table.compounds[i]!;
    try {
      for (const c of await io.conformers(compound, count, ctx.signal)) {
        compounds.push(c);
        values.push(entryAt(table.values, i, 'row'));
      }
    } catch (e) {
      if (ctx.signal?.aborted) throw e;
      warnings.push(`${compound}: ${(e as Error).message}`);
    }
    ctx.progress?.(80 + (20 * (i + 1)) / table.compounds.length);
  }
  return io.dataset({ title: `${def.title} of ${p.dataset.uri}`, source: p.algorithmUri, compounds, features: table.columns.map((c) => c.uri), values, warnings });
}

/**
 * Stores a model with features of its own: the predicted value, confidence and domain flag
 * have ot:hasSource the model (SPEC §2.2), so every prediction names the model that made it.
 */
export async function storeModel(io: AlgorithmIO, def: AlgorithmDef, p: ApplyParams, table: Table, result: ModelResult): Promise<string> {
  const model = await withCalculations(io, table, result.model);
  const modelUri = await io.newModelUri();
  const title = model.task === 'domain' ? 'distance to the training set' : `${model.target.title} predicted by ${def.title}`;
  const specs: FeatureRequest[] = [
    model.task === 'classification'
      ? { title, type: 'nominal', source: modelUri, acceptValues: model.classes }
      : { title, type: 'numeric', source: modelUri },
  ];
  const withConfidence = model.task === 'classification' || model.learner === 'knn';
  const withDomain = model.learner === 'knn' || model.task === 'domain';
  if (withConfidence) specs.push({ title: `${title}: confidence`, type: 'numeric', source: modelUri });
  if (withDomain) specs.push({ title: `${title}: in applicability domain`, type: 'nominal', source: modelUri, acceptValues: ['false', 'true'] });
  const uris = await io.features(specs);
  // io.features answers one URI per request, in order.
  const predicted: ModelData['predicted'] = { value: entryAt(uris, 0, 'feature URI') };
  if (withConfidence) predicted.confidence = entryAt(uris, 1, 'feature URI');
  if (withDomain) predicted.inDomain = entryAt(uris, uris.length - 1, 'feature URI');
  // The interval or p-values are outputs of their own kind, not predicted variables (conformalOutputs.ts).
  predicted.conformal = await conformalFeatures(io, model, modelUri, title);
  // Read-across shows its argument, as lazar did: the neighbours, their similarity and
  // measured value, as nodes of an output of its own rather than a predicted variable.
  const neighbours = model.training && neighbourOutput(modelUri, model);
  const rep = model.representation;
  const inputs = rep.kind === 'features' ? rep.uris : await io.features(inputFeatureRequests(rep, io.algorithmUri('physchem'), io.algorithmUri(def.id)));
  const uri = await io.model({
    uri: modelUri,
    title: model.task === 'domain' ? `${def.title} of ${p.dataset.uri}` : `${def.title} model of ${model.target.title}`,
    algorithm: p.algorithmUri,
    trainingDataset: model.trainingDataset,
    // Every feature the model reads, computed ones included; own:inputs gives their order.
    independentVariables: inputs,
    dependentVariables: model.task === 'domain' ? [] : [model.target.uri],
    predictedVariables: uris,
    parameters: Object.entries(p.values).map(([name, v]) => ({ name, value: Array.isArray(v) ? formatParam(v) : v })),
    data: { model, predicted, neighbours } satisfies ModelData,
  });
  const outputs = neighbours ? neighbourOutputQuads(io.ownTerms, uri, neighbours, `${title}: neighbours (training compound, similarity, measured value, rank)`) : [];
  await io.annotateModel(uri, [...validationQuads(uri, model), ...conformalQuads(uri, model, predicted.conformal), ...outputs, ...taskQuads(io.ownTerms, uri, model), ...inputListQuads(io.ownTerms, uri, inputs)]);
  return uri;
}

/** Which task the model learns and why (taskChoice.ts), as literals a client and the model page read. */
function taskQuads(own: OwnTerms, uri: string, model: TrainedModel): Quad[] {
  if (model.task === 'domain' || !model.taskReason) return [];
  const m = DataFactory.namedNode(uri);
  return [DataFactory.quad(m, own.task, DataFactory.literal(model.task)), DataFactory.quad(m, own.taskReason, DataFactory.literal(model.taskReason))];
}

/** A read-across model's neighbour output: k neighbours at most (fewer for a smaller training set). */
function neighbourOutput(modelUri: string, model: TrainedModel): NeighbourOutputInfo {
  const measure = model.representation.kind === 'morgan'
    ? `Tanimoto similarity of Morgan fingerprints (radius ${model.representation.radius}, ${model.representation.bits} bits)`
    : `1 / (1 + Euclidean distance) on the standardised ${model.representation.kind === 'descriptors' ? 'RDKit descriptors' : 'numeric features'}`;
  return { uri: neighbourOutputUri(modelUri), count: Math.min(Number(model.params.k), model.training?.compounds.length ?? 0), measure };
}

/** The model with the feature calculation chain of its independent features (chain.ts). */
async function withCalculations(io: AlgorithmIO, table: Table, model: TrainedModel): Promise<TrainedModel> {
  const rep = model.representation;
  if (rep.kind !== 'features') return model;
  const calculations: Array<FeatureCalculation | null> = [];
  for (const uri of rep.uris) {
    const source = table.columns.find((c) => c.uri === uri)?.source;
    calculations.push((source && (await io.featureCalculation(source))) || null);
  }
  return { ...model, representation: { ...rep, calculations } };
}
