// POST /model/{id}: applies a model to a dataset_uri or one compound_uri as a
// task; the result is a new dataset with the predicted variables (confidence included
// when the model predicts one), optionally published to a dataset_service.
import type { Deps } from '../deps.ts';
import { BadRequest, InternalError } from '../errors.ts';
import { ERR } from '../rdf/vocab.ts';
import { isValidIri } from '../store/binder.ts';
import type { JobContext, TaskEngine } from '../tasks/api.ts';
import { loadDataset, type LoadedDataset } from '../datasets/datasetLoad.ts';
import { publishDataset } from '../datasets/datasetRemote.ts';
import { createDataset } from '../datasets/datasets.ts';
import { readModel } from './models.ts';
import { predictorOf } from './predictors.ts';

export const PREDICT_JOB = 'model-predict';

export interface PredictParams {
  model: string;
  datasetUri?: string;
  compoundUri?: string;
  datasetService?: string;
  subjectid?: string;
}

/** Checks the form before a task is queued, so bad input answers 400 at once. */
export function checkPredictParams(p: PredictParams): void {
  if (!p.datasetUri && !p.compoundUri) throw new BadRequest('give dataset_uri (or compound_uri) to predict', { code: ERR.MissingParameter });
  for (const [name, v] of [['dataset_uri', p.datasetUri], ['compound_uri', p.compoundUri], ['dataset_service', p.datasetService]] as const) {
    if (v !== undefined && !isValidIri(v)) throw new BadRequest(`${name} is not a URI: ${JSON.stringify(v.slice(0, 200))}`, { code: ERR.InvalidIRI });
  }
}

export async function predict(deps: Deps, p: PredictParams, signal?: AbortSignal): Promise<string> {
  const { info, data } = await readModel(deps, p.model);
  const predictor = predictorOf(info.kind);
  if (!predictor) throw new InternalError(`no predictor is registered for models of kind "${info.kind}"`);
  const dataset: LoadedDataset = p.datasetUri
    ? await loadDataset(deps, p.datasetUri, { subjectid: p.subjectid })
    : { uri: p.compoundUri!, compounds: [p.compoundUri!], features: [], values: [[]] };
  const out = await predictor(deps, { model: info, data, dataset, signal, subjectid: p.subjectid });
  signal?.throwIfAborted();
  const result = await createDataset(deps, {
    title: `Predictions of ${info.title} for ${dataset.uri}`,
    source: info.uri,
    compounds: dataset.compounds,
    features: info.predictedVariables,
    values: out.values,
    warnings: out.warnings,
  });
  return p.datasetService ? publishDataset(deps, result, p.datasetService, p.subjectid) : result;
}

/** Registers the prediction job kind with the task engine (once per app). */
export function definePredictJob(tasks: TaskEngine | undefined, deps: Deps): void {
  tasks?.define<PredictParams>({
    kind: PREDICT_JOB,
    idempotent: true,
    run: (params: PredictParams, ctx: JobContext) => predict(deps, { ...params, subjectid: params.subjectid ?? ctx.subjectid }, ctx.signal),
  });
}
