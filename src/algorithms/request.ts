// Reads an apply request (SPEC §2.1 input parameters) into ApplyParams, checking what can be
// checked before a task starts: dataset_uri present, prediction_feature for supervised
// algorithms, each parameter's type and range, and rule 6 (no parameters on a
// parameterised URI).
import type { Deps } from '../deps.ts';
import type { Form } from '../http/body.ts';
import { BadRequest } from '../errors.ts';
import { readUriParam } from '../http/uriParam.ts';
import { redact } from '../auth/redact.ts';
import { admitRemote } from '../http/outbound/policy.ts';
import { ERR } from '../rdf/vocab.ts';
import type { ApplyParams } from './apply.ts';
import { algorithmUri, ensureParameterised, storedValues } from './parameterised.ts';
import { readParams, withDefaults } from './params.ts';
import type { AlgorithmDef } from './types.ts';

/** `child` is the hash of a parameterised URI when the POST went to one. */
export async function readApplyRequest(deps: Deps, def: AlgorithmDef, form: Form, child?: string): Promise<ApplyParams> {
  const sentDataset = form.get('dataset_uri')?.trim();
  if (!sentDataset) throw new BadRequest('dataset_uri is mandatory: the URI of the input dataset', { code: ERR.MissingParameter });
  const datasetUri = readUriParam(sentDataset, 'dataset_uri');
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
  // The outbound policy refuses before a task exists; dataset_uri is checked by AlgorithmIO.check.
  if (datasetService) await admitRemote(deps.config, datasetService, 'dataset_service');
  const explicit = readParams(def.params, (name) => form.all(name), form.names());
  let uri: string;
  let values;
  if (child) {
    uri = `${algorithmUri(deps, def.id)}/${child}`;
    const sent = Object.keys(explicit);
    if (sent.length > 0) {
      throw new BadRequest(`${uri} is a parameterised algorithm: it already fixes its parameters, so ${sent.join(', ')} cannot be sent (SPEC §2.1 rule 6); POST to ${algorithmUri(deps, def.id)} to choose other values`, { code: ERR.ParameterisedAlgorithm });
    }
    values = withDefaults(def.params, await storedValues(deps, def, uri));
  } else {
    values = withDefaults(def.params, explicit);
    await def.validate?.(values);
    uri = Object.keys(explicit).length > 0 ? await ensureParameterised(deps, def, values) : algorithmUri(deps, def.id);
  }
  return { algorithmUri: uri, values, datasetUri, predictionFeature, datasetService };
}
