// A dataset read into memory (datasetLoad.ts), as algorithms and predictors take it; a
// module of its own so that deps.ts can name it without importing the loader.
import type { FeatureInfo } from '../features/featureModel.ts';

export interface LoadedDataset {
  uri: string;
  /** One compound URI per data entry (a compound may appear more than once). */
  compounds: string[];
  features: FeatureInfo[];
  /** values[i][j]: entry i's value of feature j; numbers for numeric features. */
  values: Array<Array<number | string | undefined>>;
}

/** A dataset_uri as read once from the request (datasetIO.ts datasetRef); plain data, so it travels in job parameters. */
export interface DatasetRef {
  /** As sent, normalised (SPEC §1 rule 2), query included. */
  uri: string;
  /** The dataset itself: `uri` without its query. */
  base: string;
  /** The feature_uris[] of the query (SPEC §2.1): the columns asked for; absent for all. */
  featureUris?: string[];
  /** A dataset of this service, read from the store; else one fetched through the outbound client. */
  local: boolean;
}
