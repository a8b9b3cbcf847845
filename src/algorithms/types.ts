// What an algorithm module is (DESIGN: src/algorithms): its description, its parameters
// and a run function over in-memory tables. The applier (apply.ts) loads the input,
// calls run, and turns the result into resources.
import type { NamedNode } from 'n3';
import type { ParamDef, ParamValues } from './params.ts';
import type { Column, Table, Cell } from './table.ts';
import type { TrainedModel } from './learning/model.ts';

export interface RunInput {
  table: Table;
  params: ParamValues;
  /** Column index of prediction_feature in `table`, when one was given. */
  target?: number;
  /** URI of the (parameterised) algorithm that runs: ot:hasSource of created features. */
  algorithmUri: string;
  signal?: AbortSignal;
  progress?: (percent: number) => void;
  /**
   * False for a model built as a fold of a validation (src/validation/foldWorker.ts): a
   * learner then skips its own cross-validation summary, since the validation's held-out
   * predictions are the figures. Internal, never a request parameter: a model built by
   * POST /algorithm/{id} (SPEC §4.1) always carries its cross-validation.
   */
  crossvalidate?: boolean;
}

/** New feature columns computed per row of the input (descriptors, mined fragments). */
export interface FeaturesResult {
  kind: 'features';
  columns: Column[];
  values: Cell[][];
}

/** A whole new table (cleanup, normalisation, 3D): becomes a new dataset. */
export interface TableResult {
  kind: 'table';
  table: Table;
  /** Columns of `table` created by the run (their uri is empty), with ot:hasSource. */
  created?: number[];
}

export interface SelectionResult {
  kind: 'selection';
  featureUris: string[];
}

export interface ModelResult {
  kind: 'model';
  model: TrainedModel;
}

/** 3D conformers to generate for every compound (the compound service makes them). */
export interface ConformersResult {
  kind: 'conformers';
  count: number;
}

export type RunResult = FeaturesResult | TableResult | SelectionResult | ModelResult | ConformersResult;

export interface AlgorithmDef {
  /** Local id: the algorithm's URI is /algorithm/{id}. */
  id: string;
  title: string;
  description: string;
  /** Classes of the algorithm types ontology (ot:isA and rdf:type). */
  types: NamedNode[];
  /** owl:sameAs, e.g. a Blue Obelisk descriptor ontology entry. */
  sameAs?: string[];
  params: ParamDef[];
  /** True when prediction_feature is mandatory (SPEC §2.1). */
  supervised: boolean;
  /** True when a structure per row is needed (descriptors, fingerprints, mining). */
  needsStructures?: boolean;
  /** True for learning algorithms: their failures are model-building errors (500). */
  learns?: boolean;
  /** True when each row's output depends on that row alone: runs split across workers. */
  perRow?: boolean;
  /** Checks of parameter values beyond type and range, run before a task is created. */
  validate?: (params: ParamValues) => Promise<void>;
  /**
   * Checks of the loaded input (e.g. the kind of prediction_feature) run before the
   * algorithm: what they throw keeps its status (400), unlike a learner's failure (500).
   */
  checkInput?: (input: RunInput) => void;
  run: (input: RunInput) => Promise<RunResult>;
}
