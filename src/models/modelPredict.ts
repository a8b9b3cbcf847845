// POST /model/{id}: applies a model to a dataset_uri or one compound_uri as a
// task; the result is a new dataset with the predicted variables (confidence included
// when the model predicts one), optionally published to a dataset_service.
import type { Deps } from '../deps.ts';
import { uriOf } from '../deps.ts';
import { admitDataset, datasetRef } from '../algorithms/datasetIO.ts';
import { compoundIndex, compoundNumber, knowCompound } from '../compounds/compoundIndex.ts';
import { redact } from '../util/redact.ts';
import { BadRequest, InternalError } from '../errors.ts';
import { ERR } from '../rdf/vocab.ts';
import { readUriParam } from '../http/uriParam.ts';
import { admitRemote } from '../http/outbound/policy.ts';
import type { JobContext, TaskEngine } from '../tasks/api.ts';
import { loadDataset } from '../datasets/datasetLoad.ts';
import type { LoadedDataset } from '../datasets/loadedDataset.ts';
import { publishResult } from '../datasets/datasetRemote.ts';
import { createDataset } from '../datasets/datasets.ts';
import { modelGraph, readModel } from './models.ts';
import { writeNeighbours } from './neighbours.ts';
import type { Form } from '../http/body.ts';
import type { Reply } from '../http/reply.ts';
import type { JobCaller } from '../auth/readAccess.ts';
import { directReply } from '../tasks/taskReply.ts';
import { CONFIDENCE_LEVEL_PARAM } from '../algorithms/learning/conformal.ts';
import { readParams } from '../algorithms/params.ts';

export const PREDICT_JOB = 'model-predict';

export interface PredictParams {
  model: string;
  datasetUri?: string;
  compoundUri?: string;
  datasetService?: string;
  subjectid?: string;
  /** Level of the conformal interval or set (conformal.ts); the default when absent. */
  confidenceLevel?: number;
}

/**
 * Checks the form before a task is queued, so bad input answers 400 at once; answers the
 * parameters with every URI normalised (brackets percent-encoded, SPEC §1 rule 2).
 */
export function checkPredictParams(p: PredictParams): PredictParams {
  if (!p.datasetUri && !p.compoundUri) throw new BadRequest('give dataset_uri (or compound_uri) to predict', { code: ERR.MissingParameter });
  const uri = (v: string | undefined, name: string) => (v === undefined ? undefined : readUriParam(v, name));
  return { ...p, datasetUri: uri(p.datasetUri, 'dataset_uri'), compoundUri: uri(p.compoundUri, 'compound_uri'), datasetService: uri(p.datasetService, 'dataset_service') };
}

const http = /^https?:\/\//i;

/**
 * What can be known before a task is created (as POST /algorithm/{id} does, SPEC §2.1:
 * "400 incorrect dataset URI"): the URIs are http(s), and a dataset or compound of this
 * service exists. A task that could only fail would read as "task not found" later.
 */
export async function checkPredictInput(deps: Deps, p: PredictParams): Promise<void> {
  for (const [name, v] of [['dataset_uri', p.datasetUri], ['compound_uri', p.compoundUri], ['dataset_service', p.datasetService]] as const) {
    if (v !== undefined && !http.test(v)) throw new BadRequest(`${name} must be an http(s) URI this service can read: ${JSON.stringify(redact(v).slice(0, 200))}`, { code: ERR.InvalidIRI });
  }
  // A local dataset exists; anything this service would call elsewhere passes the outbound policy.
  if (p.datasetUri) await admitDataset(deps, datasetRef(deps.config, p.datasetUri));
  for (const [name, v] of [['compound_uri', p.compoundUri], ['dataset_service', p.datasetService]] as const) {
    if (v !== undefined) await admitRemote(deps.config, v, name);
  }
  const local = p.compoundUri?.startsWith(uriOf(deps.config, '/compound/'));
  if (p.compoundUri && local) await knowCompound(deps, compoundNumber(p.compoundUri) ?? -1);
  if (p.compoundUri && local && !compoundIndex(deps).records.has(compoundNumber(p.compoundUri) ?? -1)) {
    throw new BadRequest(`compound_uri ${p.compoundUri} names no compound of this service`, { code: ERR.InvalidParameter });
  }
}

/**
 * POST /model/{id}: the model exists and the form is checked (that the caller may read it, by the route), then the
 * prediction runs as a task (SPEC §4.3). The token (SPEC §5.1) travels in TaskMeta (kept in memory), never in the
 * job parameters, which are stored with the task; the owner makes the task and its result
 * the caller's.
 */
export async function startPredict(deps: Deps, model: string, form: Form, caller: JobCaller): Promise<Reply> {
  await modelGraph(deps, model);
  const params = checkPredictParams({
    model,
    datasetUri: form.get('dataset_uri'),
    compoundUri: form.get('compound_uri'),
    datasetService: form.get('dataset_service'),
    // A level outside (0,1) answers 400 naming the range (STYLE §12).
    confidenceLevel: readParams([CONFIDENCE_LEVEL_PARAM], (name) => form.all(name)).confidence_level as number | undefined,
  });
  await checkPredictInput(deps, params);
  const { access: _access, ...who } = caller;
  const meta = { title: `Prediction by ${model}`, creator: model, ...who };
  const tasks = (deps as Deps & { tasks?: TaskEngine }).tasks;
  if (!tasks) return directReply(deps, [await predict(deps, { ...params, subjectid: caller.subjectid })], meta);
  return tasks.runAsTask(PREDICT_JOB, params, meta);
}

export async function predict(deps: Deps, p: PredictParams, signal?: AbortSignal): Promise<string> {
  const { info, data } = await readModel(deps, p.model);
  const predictor = deps.predictors.get(info.kind);
  if (!predictor) throw new InternalError(`no predictor is registered for models of kind "${info.kind}"`);
  const dataset: LoadedDataset = p.datasetUri
    ? await loadDataset(deps, datasetRef(deps.config, p.datasetUri), { subjectid: p.subjectid })
    : { uri: p.compoundUri!, compounds: [p.compoundUri!], features: [], values: [[]] };
  const out = await predictor({ model: info, data, dataset, signal, subjectid: p.subjectid, confidenceLevel: p.confidenceLevel });
  signal?.throwIfAborted();
  const features = out.features ?? info.predictedVariables;
  // Beyond the predicted variables come the conformal outputs, whose level the title states.
  const level = features.length > info.predictedVariables.length ? ` at confidence level ${p.confidenceLevel ?? CONFIDENCE_LEVEL_PARAM.default}` : '';
  const result = await createDataset(deps, {
    title: `Predictions of ${info.title} for ${redact(dataset.uri)}${level}`,
    source: info.uri,
    compounds: dataset.compounds,
    features,
    values: out.values,
    warnings: out.warnings,
  });
  if (out.neighbours) await writeNeighbours(deps, result, out.neighbours.output, out.neighbours.rows);
  return p.datasetService ? publishResult(deps, result, p.datasetService, p.subjectid) : result;
}

/** Registers the prediction job kind with the task engine (once per app). */
export function definePredictJob(tasks: TaskEngine | undefined, deps: Deps): void {
  tasks?.define<PredictParams>({
    kind: PREDICT_JOB,
    idempotent: true,
    run: (params: PredictParams, ctx: JobContext) => predict(deps, { ...params, subjectid: params.subjectid ?? ctx.subjectid }, ctx.signal),
  });
}
