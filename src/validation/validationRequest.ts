// Reads the forms of POST /validation/* and checks everything that can be checked before a
// task is created (SPEC §4.3: bad input answers 400 at once, not as a failed task): the
// algorithm is a learning algorithm of this service, the dataset holds prediction_feature,
// and num_folds, random_seed, stratified, split_ratio and confidence_level are in range. Each error names the
// parameter (STYLE §12).
import type { Deps } from '../deps.ts';
import { uriOf } from '../deps.ts';
import { BadRequest } from '../errors.ts';
import type { Form } from '../http/body.ts';
import { algorithmById, HASH, storedValues } from '../algorithms/catalogue.ts';
import { readParams, withDefaults } from '../algorithms/params.ts';
import { modelGraph } from '../models/models.ts';
import { DC, ERR, OT } from '../rdf/vocab.ts';
import { checkIri } from '../store/binder.ts';
import { withoutCredentials } from '../http/outbound/credentials.ts';
import { admitDataset, readDatasetRef, valuesTable } from '../algorithms/datasetIO.ts';
import { checkAgainstData } from '../algorithms/sizeLimits.ts';
import type { AlgorithmDef } from '../algorithms/types.ts';
import type { LearningValidationParams } from './learningValidation.ts';
import type { TestSetParams } from './testSetValidation.ts';
import { TEST_SET_PARAMS, VALIDATION_PARAMS } from './validationParams.ts';
import { targetOf } from './testSetValidation.ts';
import { matchTarget, matchTried } from './targetMatch.ts';
import { featuresOf } from '../datasets/datasetLayout.ts';
import { readFeatures } from '../features/features.ts';
import { DataFactory } from 'n3';

function required(form: Form, name: string, what: string): string {
  const v = form.get(name)?.trim();
  if (!v) throw new BadRequest(`${name} is mandatory: ${what}`, { code: ERR.MissingParameter });
  // A token or user-info inside the URI is dropped before the URI is stored or fetched.
  return withoutCredentials(checkIri(v, name));
}

/** The learning algorithm an algorithm_uri names, with its (stored) parameter values. */
async function learningAlgorithm(deps: Deps, uri: string): Promise<Pick<LearningValidationParams, 'algorithmId' | 'algorithmUri' | 'values'> & { types: AlgorithmDef['types'] }> {
  const prefix = uriOf(deps.config, '/algorithm/');
  const [id, hash, ...rest] = uri.startsWith(prefix) ? uri.slice(prefix.length).split('/') : [];
  const def = id ? algorithmById(id) : undefined;
  if (!def || rest.length > 0 || (hash !== undefined && (!HASH.test(hash) || !(await deps.store.hasGraph(uri))))) {
    throw new BadRequest(`algorithm_uri ${uri} names no algorithm of this service`, { code: ERR.InvalidParameter });
  }
  if (!def.learns || !def.supervised) {
    throw new BadRequest(`algorithm_uri ${uri} is not a learning algorithm: validation needs one that learns prediction_feature`, { code: ERR.InvalidParameter });
  }
  return { algorithmId: def.id, algorithmUri: uri, types: def.types, values: withDefaults(def.params, hash ? await storedValues(deps, def, uri) : {}) };
}

export async function readLearningRequest(deps: Deps, form: Form, type: LearningValidationParams['type'], subjectid?: string): Promise<LearningValidationParams> {
  const { types, ...algorithm } = await learningAlgorithm(deps, required(form, 'algorithm_uri', 'the URI of a learning algorithm of this service'));
  const datasetUri = required(form, 'dataset_uri', 'the URI of the dataset to validate on');
  const predictionFeature = required(form, 'prediction_feature', 'the URI of the feature to learn');
  const values = readParams(VALIDATION_PARAMS, (name) => form.all(name));
  const sent = type === 'crossvalidation' ? Object.keys(values) : [];
  const local = await admitDataset(deps, readDatasetRef(deps.config, datasetUri), { predictionFeature, subjectid });
  const withDefault = withDefaults(VALIDATION_PARAMS, values);
  // num_folds against the data: here for a local dataset, in the job for a remote one.
  if (local) checkAgainstData(types, VALIDATION_PARAMS, withDefault, sent, valuesTable(local), predictionFeature, { stratified: values.stratified as boolean | undefined });
  return {
    type,
    ...algorithm,
    datasetUri,
    predictionFeature,
    seed: withDefault.random_seed as number,
    confidenceLevel: withDefault.confidence_level as number,
    stratified: values.stratified as boolean | undefined,
    ...(type === 'crossvalidation' ? { numFolds: withDefault.num_folds as number, numFoldsSent: sent.includes('num_folds') } : { splitRatio: withDefault.split_ratio as number }),
  };
}

export async function readTestSetRequest(deps: Deps, form: Form, subjectid?: string): Promise<TestSetParams> {
  const confidenceLevel = withDefaults(TEST_SET_PARAMS, readParams(TEST_SET_PARAMS, (name) => form.all(name))).confidence_level as number;
  const model = required(form, 'model_uri', 'the URI of a model of this service');
  let graph;
  try {
    graph = await modelGraph(deps, model);
  } catch (e) {
    throw new BadRequest(`model_uri ${model} names no model of this service`, { code: ERR.InvalidParameter, cause: e });
  }
  const endpoint = graph.find((q) => q.subject.value === model && q.predicate.equals(OT.dependentVariables))?.object.value;
  if (!endpoint) throw new BadRequest(`model_uri ${model} predicts no endpoint (no ot:dependentVariables): nothing to validate`, { code: ERR.InvalidParameter });
  const testDataset = required(form, 'test_dataset_uri', 'the URI of the external test set');
  const target = form.get('test_target_dataset_uri')?.trim() ? required(form, 'test_target_dataset_uri', '') : undefined;
  // The outbound policy, before anything is fetched, naming the parameter that is refused.
  const testRef = readDatasetRef(deps.config, testDataset, 'test_dataset_uri');
  const targetRef = target ? readDatasetRef(deps.config, target, 'test_target_dataset_uri') : undefined;
  await admitDataset(deps, testRef, { name: 'test_dataset_uri', subjectid });
  if (targetRef) await admitDataset(deps, targetRef, { name: 'test_target_dataset_uri', subjectid });
  const measured = targetRef ?? testRef;
  if (measured.local) await checkTargetIn(deps, measured.base, endpoint, target ? 'test_target_dataset_uri' : 'test_dataset_uri');
  return { model, testDataset, testTargetDataset: target, confidenceLevel };
}

/** A local test set holds the model's dependent variable, by URI, owl:sameAs or title (targetMatch.ts); 400 before any task otherwise. */
async function checkTargetIn(deps: Deps, dataset: string, endpoint: string, name: string): Promise<void> {
  const uris = await featuresOf(deps, dataset);
  const infos = await readFeatures(deps, uris);
  const columns = [];
  for (const [i, uri] of uris.entries()) {
    // A feature of another service: the title copied into the dataset.
    const title = infos[i]?.title ?? (await deps.store.match(DataFactory.namedNode(uri), DC.title, null, dataset))[0]?.object.value ?? '';
    columns.push({ uri, title, units: infos[i]?.units, sameAs: infos[i]?.sameAs });
  }
  const target = await targetOf(deps, { uri: endpoint, title: '' });
  if (!matchTarget(target, columns)) {
    throw new BadRequest(`${name} ${dataset} holds no values of the model's dependent variable ${endpoint} (looked for ${matchTried(target)})`, { code: ERR.PredictionFeatureNotInDataset });
  }
}
