// The catalogue: every algorithm the service offers, by id (DESIGN: src/algorithms).
import type { AlgorithmDef } from './types.ts';
import { physchem } from './descriptors/physchem.ts';
import { oclProperties } from './descriptors/oclProperties.ts';
import { smartsMatch } from './descriptors/smartsMatch.ts';
import { singleDescriptors } from './descriptors/single.ts';
import { frequentMining, supervisedMining } from './mining/frequent.ts';
import { knn, randomForest, linearRegression, logisticRegression } from './learning/algorithms.ts';
import { applicabilityDomain } from './learning/domain.ts';
import { varianceFilter, correlationFilter, topK } from './preprocessing/featureSelection.ts';
import { standardisation, removeDuplicates, removeMissing } from './preprocessing/cleanup.ts';
import { normalization } from './preprocessing/normalization.ts';
import { generation3d } from './preprocessing/generation3d.ts';

export const ALGORITHMS: readonly AlgorithmDef[] = [
  physchem, oclProperties, smartsMatch, ...singleDescriptors,
  frequentMining, supervisedMining,
  knn, randomForest, linearRegression, logisticRegression, applicabilityDomain,
  varianceFilter, correlationFilter, topK,
  standardisation, removeDuplicates, removeMissing, normalization, generation3d,
];

const byId = new Map(ALGORITHMS.map((a) => [a.id, a]));

export function algorithmById(id: string): AlgorithmDef | undefined {
  return byId.get(id);
}
