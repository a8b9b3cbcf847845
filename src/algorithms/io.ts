// What running an algorithm needs from the dataset, feature, compound and model resources
// (behind one small interface, so apply.ts reads as the algorithm flow
// and tests can drive it with in-memory tables).
import type { Table } from './table.ts';
import type { FeatureCalculation } from './learning/representation.ts';
import type { OwnTerms } from '../rdf/vocab.ts';
import type { DatasetRef } from '../datasets/loadedDataset.ts';
import type { NewModel } from '../models/modelInfo.ts';

export interface FeatureRequest {
  title: string;
  type: 'numeric' | 'nominal' | 'string';
  /** ot:hasSource: the (parameterised) algorithm URI (SPEC §2.1 rule 3). */
  source: string;
  units?: string;
  sameAs?: string;
  acceptValues?: string[];
}

export interface DatasetRequest {
  title: string;
  source: string;
  compounds: readonly string[];
  features: readonly string[];
  /** Rows by position: an array, or rows made as they are asked for (once each, in order). */
  values: { readonly length: number; at(i: number): ReadonlyArray<number | string | null> | undefined };
  warnings?: readonly string[];
}

/** A model as an algorithm stores it: its predictor's kind is the io's to add (datasetIO.ts). */
export type ModelRequest = Omit<NewModel, 'kind'>;

export interface AlgorithmIO {
  /** The service's own vocabulary (ontology/service.ttl), under its base URI. */
  ownTerms: OwnTerms;
  /** URI of the algorithm `id` of this service (unparameterised). */
  algorithmUri: (id: string) => string;
  /** The reference a dataset URI stands for (datasetIO.ts datasetRef), for runs that start from a stored URI. */
  ref: (datasetUri: string) => DatasetRef;
  /**
   * The dataset as a table with a SMILES per row; feature_uris[] on the URI restrict the
   * columns, always keeping prediction_feature.
   */
  load: (dataset: DatasetRef, options: { subjectid?: string; signal?: AbortSignal; predictionFeature?: string }) => Promise<Table>;
  features: (specs: readonly FeatureRequest[]) => Promise<string[]>;
  /** Compound URIs of new structures (undefined where one cannot be read). */
  compounds: (smiles: readonly string[]) => Promise<Array<string | undefined>>;
  dataset: (request: DatasetRequest) => Promise<string>;
  /**
   * How a feature with ot:hasSource `source` is computed for new compounds: a per-row
   * descriptor algorithm of this service and its parameters; undefined for anything else.
   */
  featureCalculation: (source: string) => Promise<FeatureCalculation | undefined>;
  /** A fresh model URI (the model is stored later by `model`). */
  newModelUri: () => Promise<string>;
  model: (request: ModelRequest) => Promise<string>;
  /** Adds triples describing a model (its validation statistics) to its graph. */
  annotateModel: (modelUri: string, quads: import('@rdfjs/types').Quad[]) => Promise<void>;
  /** Generates and stores up to `count` 3D conformers of a compound of this service; their URIs. */
  conformers: (compoundUri: string, count: number, signal?: AbortSignal) => Promise<string[]>;
  /** Copies a dataset to another dataset service (SPEC §2.1 dataset_service). */
  publish: (datasetUri: string, datasetService: string, subjectid?: string) => Promise<string>;
}
