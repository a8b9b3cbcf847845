// Applicability domain: distance of a compound to the training set, as 1 minus
// the mean similarity to its k nearest training compounds; a compound is inside the
// domain when that distance is within the given percentile of the training compounds'
// own leave-one-out distances.
import { ATYPE } from '../../rdf/vocab.ts';
import { fitKnn, similarityVector, type KnnModel } from '../ml/knn.ts';
import type { AlgorithmDef } from '../types.ts';
import type { Prediction, TrainedModel } from './model.ts';
import { chooseRepresentation, REPRESENTATIONS, vectors } from './representation.ts';
import type { Table } from '../table.ts';
import { BadRequest } from '../../errors.ts';
import { ERR } from '../../rdf/vocab.ts';

export interface DomainState {
  knn: KnnModel;
  threshold: number;
}

function distance(sims: Float64Array, k: number, skip = -1): number {
  const top = Array.from(sims).filter((_, i) => i !== skip).sort((a, b) => b - a).slice(0, k);
  return 1 - top.reduce((s, v) => s + v, 0) / (top.length || 1);
}

export const applicabilityDomain: AlgorithmDef = {
  id: 'applicability-domain',
  title: 'Applicability domain: distance to the training set',
  description: 'Builds a domain model from a training dataset. For each compound it predicts the distance to the training set (1 - mean similarity to the k nearest training compounds, Tanimoto on Morgan fingerprints or on standardised features) and whether it lies within the domain (distance at most the given percentile of the training compounds\' leave-one-out distances).',
  types: [ATYPE.ApplicabilityDomain, ATYPE.Unsupervised],
  supervised: false,
  learns: true,
  params: [
    { name: 'k', type: 'int', default: 3, min: 1, max: 1000, description: 'Nearest training compounds averaged' },
    { name: 'percentile', type: 'float', default: 95, min: 0, minExclusive: true, max: 100, description: 'Percentile of training distances that bounds the domain, in (0,100]' },
    { name: 'representation', type: 'string', default: 'morgan', choices: REPRESENTATIONS, description: 'morgan (fingerprints of the structures), descriptors (RDKit), features (every numeric feature of the dataset), or auto (features when the dataset has any, else morgan)' },
    { name: 'radius', type: 'int', default: 2, min: 0, max: 6, description: 'Morgan fingerprint radius' },
    { name: 'bits', type: 'int', default: 2048, min: 64, max: 16384, description: 'Morgan fingerprint length in bits' },
  ],
  run: async ({ table, params, algorithmUri }) => {
    const rep = chooseRepresentation(table, undefined, params.representation as string, 'morgan', { radius: params.radius as number, bits: params.bits as number });
    const vecs = await vectors(table, rep);
    const X = vecs.filter((v): v is number[] => v !== undefined && v.every(Number.isFinite));
    if (X.length < 2) throw new BadRequest('the applicability domain needs at least two compounds with usable structures or values', { code: ERR.InvalidParameter });
    const k = params.k as number;
    const knn = fitKnn(X, X.map(() => 0), { k, classes: 0, minSimilarity: 0 });
    const own = X.map((x, i) => distance(similarityVector(knn, x), k, i)).sort((a, b) => a - b);
    const threshold = own[Math.min(own.length - 1, Math.ceil(((params.percentile as number) / 100) * own.length) - 1)]!; // own has X.length >= 2 entries
    const model: TrainedModel = {
      learner: 'domain', algorithmUri, params, task: 'domain', trainingDataset: table.datasetUri,
      target: { uri: '', title: 'distance to the training set' }, classes: [], representation: rep,
      means: [], state: { knn, threshold } satisfies DomainState, trainingSize: X.length,
    };
    return { kind: 'model', model };
  },
};

export async function predictDomain(model: TrainedModel, table: Table): Promise<Prediction[]> {
  const { knn, threshold } = model.state as DomainState;
  const vecs = await vectors(table, model.representation);
  return vecs.map((v) => {
    if (!v || !v.every(Number.isFinite)) return { value: null };
    const d = distance(similarityVector(knn, v), knn.k);
    return { value: d, inDomain: d <= threshold, confidence: 1 - d };
  });
}
