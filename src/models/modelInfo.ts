// What a model is, apart from how it is stored (models.ts): a module of its own so that
// deps.ts can name predictors without importing the store code.

export interface NewModel {
  /** A URI minted beforehand (newModelUri), e.g. to be the ot:hasSource of its features. */
  uri?: string;
  title: string;
  creator?: string;
  /** Algorithm URI (the parameterised one when parameters were given, SPEC §2.1). */
  algorithm: string;
  trainingDataset: string;
  independentVariables: readonly string[];
  dependentVariables: readonly string[];
  /** Features the model writes when it predicts (include a confidence feature if any). */
  predictedVariables: readonly string[];
  parameters?: ReadonlyArray<{ name: string; value: string | number | boolean }>;
  /** Which predictor applies the model (deps.predictors). */
  kind: string;
  /** The learned model, serialised as JSON. */
  data: unknown;
}

export interface ModelInfo extends Omit<NewModel, 'data' | 'uri'> {
  uri: string;
}
