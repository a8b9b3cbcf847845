// loadDataset: any dataset_uri as an in-memory table for algorithms. A
// dataset of this service is read straight from the store (viewOf answers 404 when it does
// not exist); any other is fetched as RDF/XML with the caller's subjectid. feature_uris[]
// on the URI restrict its features (SPEC §2.1 dataset_uri).
import type { Deps } from '../deps.ts';
import { BadRequest } from '../errors.ts';
import { ERR, XSD } from '../rdf/vocab.ts';
import { readRdfDataset } from './rdfDataset.ts';
import { isNumeric } from './table.ts';
import { rowsOf, viewOf } from './datasetLayout.ts';
import { readFeatures, type FeatureInfo } from '../features/features.ts';
import type { DatasetRef, LoadedDataset } from './loadedDataset.ts';
import { fetchRemoteDataset } from './datasetRemote.ts';

export interface LoadOptions {
  subjectid?: string;
  featureUris?: readonly string[];
}

/**
 * The dataset a DatasetRef names (read and checked once, algorithms/datasetIO.ts
 * datasetRef); options.featureUris restrict its columns further.
 */
export async function loadDataset(deps: Deps, ref: DatasetRef, options: LoadOptions = {}): Promise<LoadedDataset> {
  const restrict = [...(ref.featureUris ?? []), ...(options.featureUris ?? [])];
  return ref.local ? loadLocal(deps, ref.base, restrict) : loadRemote(deps, ref.uri, restrict, options.subjectid);
}

async function loadLocal(deps: Deps, uri: string, featureUris: readonly string[]): Promise<LoadedDataset> {
  const view = await viewOf(deps, uri, { featureUris });
  const features = (await readFeatures(deps, view.features)).map((info, i) => info ?? { uri: view.features[i]!, title: view.features[i]!, type: 'string' as const }); // one info per feature
  const compounds: string[] = [];
  const values: LoadedDataset['values'] = [];
  for await (const row of rowsOf(deps, view)) {
    compounds.push(row.compound);
    values.push(row.values.map((v) => (v === undefined ? undefined : v.datatype.equals(XSD.double) ? Number(v.value) : v.value)));
  }
  return { uri, compounds, features, values };
}

async function loadRemote(deps: Deps, datasetUri: string, featureUris: readonly string[], subjectid?: string): Promise<LoadedDataset> {
  const quads = await fetchRemoteDataset(deps, datasetUri, subjectid);
  const table = readRdfDataset(quads, { keepUris: true });
  const features: FeatureInfo[] = table.columns.map((c, i) => ({
    uri: c.featureUri ?? `${datasetUri}#feature${i + 1}`,
    title: c.title,
    type: c.type ?? 'string',
    units: c.spec?.units,
    sameAs: c.spec?.sameAs,
    source: c.spec?.source,
  }));
  let keep = features.map((_, j) => j);
  if (featureUris.length > 0) {
    const missing = featureUris.filter((f) => !features.some((x) => x.uri === f));
    if (missing.length > 0) throw new BadRequest(`feature_uris[] names features not in dataset ${datasetUri}: ${missing.join(', ')}`, { code: ERR.FeatureNotInDataset });
    keep = featureUris.map((f) => features.findIndex((x) => x.uri === f));
  }
  return {
    uri: datasetUri,
    compounds: table.rows.map((r) => r.compoundUri ?? ''),
    // keep holds positions of features: every feature_uris[] entry was found above.
    features: keep.map((j) => features[j]!),
    values: table.rows.map((r) => keep.map((j) => {
      const v = r.values[j];
      return v !== undefined && features[j]!.type === 'numeric' && isNumeric(v) ? Number(v) : v;
    })),
  };
}
