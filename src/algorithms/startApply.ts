// Applying an algorithm, as the route asks for it (SPEC §2.1, §4.1): the form is read and
// checked before a task exists — the algorithm (looked up once), dataset_uri (read once
// into a DatasetRef), prediction_feature for supervised algorithms, each parameter's type
// and range, rule 6 (no parameters on a parameterised URI), and the outbound policy for
// everything the job would fetch or post elsewhere — then the job is queued. That the
// caller may read every resource the form names (AUTH_READ=owner) the route checked
// already, taking the caller (jobCallerOf). The job runs
// applyAlgorithm (apply.ts) with the AlgorithmIO built once at boot (deps.io).
import { workerThreads } from '../config.ts';
import type { Deps } from '../deps.ts';
import type { Form } from '../http/body.ts';
import { BadRequest, HttpError, NotFound } from '../errors.ts';
import { readUriParam } from '../http/uriParam.ts';
import { redact } from '../util/redact.ts';
import type { JobCaller } from '../auth/readAccess.ts';
import { admitRemote } from '../http/outbound/policy.ts';
import { ATYPE, ERR } from '../rdf/vocab.ts';
import type { JobContext } from '../tasks/api.ts';
import type { Reply } from '../http/reply.ts';
import { applyAlgorithm, type ApplyParams } from './apply.ts';
import { algorithmById, algorithmUri, ensureParameterised, resolveAlgorithm, storedValues } from './catalogue.ts';
import { admitDataset, datasetRef, readDatasetRef, valuesTable } from './datasetIO.ts';
import { workerRunner } from './worker.ts';
import { readParams, withDefaults } from './params.ts';
import { checkAgainstData } from './sizeLimits.ts';
import type { AlgorithmDef } from './types.ts';

export const APPLY_JOB = 'algorithm-apply';

/** The job's parameters: plain JSON, so a Queued run survives a restart. */
export interface ApplyJobParams extends ApplyParams {
  id: string;
}

/** The algorithm a POST went to: `/algorithm/{id}` or its parameterised child `/algorithm/{id}/{hash}`. */
export interface ApplyTarget {
  id: string;
  hash?: string;
}

/** Reads the form into ApplyParams; every URI normalised (SPEC §1 rule 2). */
async function readApplyForm(deps: Deps, def: AlgorithmDef, form: Form, hash?: string): Promise<ApplyParams> {
  const sentDataset = form.get('dataset_uri')?.trim();
  if (!sentDataset) throw new BadRequest('dataset_uri is mandatory: the URI of the input dataset', { code: ERR.MissingParameter });
  const dataset = readDatasetRef(deps.config, sentDataset);
  const sentFeature = form.get('prediction_feature')?.trim() || undefined;
  if (def.supervised && !sentFeature) {
    throw new BadRequest(`prediction_feature is mandatory for ${def.id}: the URI of the feature to learn`, { code: ERR.MissingParameter });
  }
  const predictionFeature = sentFeature && readUriParam(sentFeature, 'prediction_feature');
  const sentService = form.get('dataset_service')?.trim() || undefined;
  const datasetService = sentService && readUriParam(sentService, 'dataset_service');
  // SPEC §2.1: the dataset service receives the result by POST; only http(s) can.
  if (datasetService && !/^https?:\/\//i.test(datasetService)) {
    throw new BadRequest(`dataset_service must be the http(s) URI of a dataset service: ${JSON.stringify(redact(datasetService).slice(0, 200))}`, { code: ERR.InvalidIRI });
  }
  const explicit = readParams(def.params, (name) => form.all(name), form.names());
  const generic = algorithmUri(deps, def.id);
  if (hash) {
    const uri = `${generic}/${hash}`;
    const sent = Object.keys(explicit);
    if (sent.length > 0) {
      throw new BadRequest(`${uri} is a parameterised algorithm: it already fixes its parameters, so ${sent.join(', ')} cannot be sent (SPEC §2.1 rule 6); POST to ${generic} to choose other values`, { code: ERR.ParameterisedAlgorithm });
    }
    return { algorithmUri: uri, values: withDefaults(def.params, await storedValues(deps, def, uri)), dataset, predictionFeature, datasetService };
  }
  const values = withDefaults(def.params, explicit);
  await def.validate?.(values);
  const uri = Object.keys(explicit).length > 0 ? await ensureParameterised(deps, def, values) : generic;
  const sent = def.params.some((p) => p.limitedBy && p.name in explicit) ? Object.keys(explicit) : undefined;
  return { algorithmUri: uri, values, dataset, predictionFeature, datasetService, ...(sent ? { sent } : {}) };
}

/** What the job would read or post elsewhere passes the outbound policy, and the dataset exists. */
async function admit(deps: Deps, def: AlgorithmDef, p: ApplyParams, subjectid?: string): Promise<void> {
  const local = await admitDataset(deps, p.dataset, { predictionFeature: p.predictionFeature, subjectid });
  // k and folds against a local dataset's size now; a remote one's in the job (apply.ts).
  if (local && p.sent && p.predictionFeature && def.learns) checkAgainstData(def.types, def.params, p.values, p.sent, valuesTable(local), p.predictionFeature, { asked: p.values.task as string | undefined });
  if (p.datasetService) await admitRemote(deps.config, p.datasetService, 'dataset_service');
}

/** POST /algorithm/{id}[/{hash}]: checks everything, then queues the job (SPEC §4.3: 202 with a task). */
export async function startApply(deps: Deps, target: ApplyTarget, form: Form, caller: JobCaller): Promise<Reply> {
  const { def } = await resolveAlgorithm(deps, target.id, target.hash);
  const params = await readApplyForm(deps, def, form, target.hash);
  const subjectid = caller.subjectid ?? form.get('subjectid');
  await admit(deps, def, params, subjectid);
  return deps.tasks.runAsTask<ApplyJobParams>(APPLY_JOB, { id: def.id, ...params }, {
    title: `Apply ${def.title} to ${redact(params.dataset.uri)}`,
    creator: params.algorithmUri,
    owner: caller.owner,
    subjectid,
    client: caller.client,
  });
}

/**
 * SPEC §4.1 "Apply feature selection": dataset_uri and feature_definition (the candidate
 * features), answered at once with the selected features.
 */
export async function selectFeatures(deps: Deps, id: string, form: Form, caller: JobCaller): Promise<{ selected: string[]; title: string; creator: string }> {
  const { def } = await resolveAlgorithm(deps, id);
  if (!def.types.some((t) => t.equals(ATYPE.FeatureSelection))) throw new NotFound(`${id} is not a feature selection algorithm`);
  const params = await readApplyForm(deps, def, form);
  const candidates = form.all('feature_definition').map((f) => readUriParam(f, 'feature_definition'));
  if (candidates.length > 0) {
    // The candidates travel as feature_uris[] of the dataset (SPEC §2.1 dataset_uri).
    const url = new URL(params.dataset.uri);
    for (const f of candidates) url.searchParams.append('feature_uris[]', f);
    params.dataset = datasetRef(deps.config, url.href);
  }
  const subjectid = caller.subjectid ?? form.get('subjectid');
  try {
    await admit(deps, def, params, subjectid);
    const selected = await applyAlgorithm(deps.io, def, params, { subjectid });
    return { selected, title: `Apply ${def.title} to ${redact(params.dataset.uri)}`, creator: params.algorithmUri };
  } catch (e) {
    // Name the form field the client sent.
    if (candidates.length > 0 && e instanceof HttpError && e.code.equals(ERR.FeatureNotInDataset)) {
      throw new BadRequest('feature_definition names a feature that is not in the dataset of dataset_uri', { code: ERR.FeatureNotInDataset, details: e.message });
    }
    throw e;
  }
}

/** Registers the apply job with the task engine; it runs the algorithm in the worker threads. */
export function defineApplyJob(deps: Deps): void {
  const workers = workerThreads(deps.config);
  deps.tasks.define<ApplyJobParams>({
    kind: APPLY_JOB,
    idempotent: false,
    run: async (params, ctx: JobContext) => {
      // The job may run in another process, or after a restart: the id is all it carries.
      const def = algorithmById(params.id);
      if (!def) throw new NotFound(`no algorithm ${params.id}`);
      // A run queued before dataset_uri became a DatasetRef carries the URI alone.
      const { datasetUri, ...rest } = params as ApplyJobParams & { datasetUri?: string };
      const dataset = rest.dataset ?? deps.io.ref(datasetUri ?? '');
      return applyAlgorithm(deps.io, def, { ...rest, dataset }, {
        signal: ctx.signal,
        progress: ctx.progress,
        subjectid: ctx.subjectid,
        runner: workerRunner(ctx.runInWorker, workers),
      });
    },
  });
}
