// dataset_uri (SPEC §2.1), read once per request into a DatasetRef that the checks, the job
// and the dataset loader all take. Checked before any task exists (SPEC §2.1: "400
// incorrect dataset URI"): http(s), a dataset of this service that exists, or one elsewhere
// that the outbound policy admits (DESIGN "Outbound requests and trust").
import type { Config } from '../config.ts';
import type { Deps } from '../deps.ts';
import { uriOf } from '../deps.ts';
import { BadRequest, HttpError } from '../errors.ts';
import { ERR } from '../rdf/vocab.ts';
import { readUriParam } from '../http/uriParam.ts';
import { redact } from '../util/redact.ts';
import { admitRemote } from '../http/outbound/policy.ts';
import { isDataset } from '../datasets/datasetLayout.ts';
import { loadDataset, type LoadedDataset } from '../datasets/datasetLoad.ts';
import type { DatasetRef } from './io.ts';

export type { DatasetRef } from './io.ts';

/** The reference an already normalised http(s) dataset URI stands for. */
export function datasetRef(config: Config, uri: string): DatasetRef {
  const url = new URL(uri);
  const featureUris = [...url.searchParams.getAll('feature_uris[]'), ...url.searchParams.getAll('feature_uris')];
  url.search = '';
  const ref: DatasetRef = { uri, base: url.href, local: url.href.startsWith(uriOf(config, '/dataset/')) };
  if (featureUris.length > 0) ref.featureUris = featureUris;
  return ref;
}

/** A form field naming a dataset, normalised (SPEC §1 rule 2); 400 unless an http(s) URI. */
export function readDatasetRef(config: Config, sent: string, name = 'dataset_uri'): DatasetRef {
  const uri = readUriParam(sent, name);
  // Only http(s) datasets are read (SPEC §2.1: a dataset service's URI).
  if (!/^https?:\/\//i.test(uri)) throw new BadRequest(`${name} must be an http(s) URI of a dataset: ${JSON.stringify(redact(uri).slice(0, 200))}`, { code: ERR.InvalidIRI });
  return datasetRef(config, uri);
}

/**
 * 400 unless the job could read the dataset: a local one exists (and holds
 * prediction_feature when one is named), a remote one passes the outbound policy. Answers a
 * local dataset's prediction_feature column as read for the check (the size limits use it).
 */
export async function admitDataset(deps: Deps, ref: DatasetRef, options: { name?: string; predictionFeature?: string; subjectid?: string } = {}): Promise<LoadedDataset | undefined> {
  const name = options.name ?? 'dataset_uri';
  if (!ref.local) {
    await admitRemote(deps.config, ref.uri, name);
    return undefined;
  }
  if (!(await isDataset(deps, ref.base))) throw new BadRequest(`${name} ${ref.uri} names no dataset of this service`, { code: ERR.InvalidParameter });
  const feature = options.predictionFeature;
  if (!feature) return undefined;
  try {
    const d = await loadDataset(deps, ref.base, { subjectid: options.subjectid, featureUris: [feature] });
    if (d.features.some((f) => f.uri === feature)) return d;
  } catch (e) {
    if (!(e instanceof HttpError) || e.status !== 400) throw e;
  }
  throw new BadRequest(`prediction_feature ${feature} is not a feature of dataset ${ref.base}`, { code: ERR.PredictionFeatureNotInDataset });
}
