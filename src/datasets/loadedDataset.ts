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
