// The parameters of a validation request, read by the request check and by the job.
import type { ParamDef } from '../algorithms/params.ts';
import { CONFIDENCE_LEVEL_PARAM } from '../algorithms/learning/conformal.ts';

/** The validation parameters, described as algorithm parameters are (SPEC §2.1). */
export const VALIDATION_PARAMS: readonly ParamDef[] = [
  { name: 'num_folds', type: 'int', default: 10, min: 2, max: 100, limitedBy: 'folds', description: 'Folds of the cross-validation' },
  { name: 'random_seed', type: 'int', default: 1, min: 0, max: 2147483647, description: 'Seed of the partition' },
  { name: 'stratified', type: 'boolean', description: 'Keep the class balance in every fold (default: true for classification)' },
  { name: 'split_ratio', type: 'float', default: 0.67, min: 0, minExclusive: true, max: 1, maxExclusive: true, description: 'Share of the compounds trained on, in (0,1)' },
  CONFIDENCE_LEVEL_PARAM,
];

/** The parameters of a validation on an external test set besides its URIs. */
export const TEST_SET_PARAMS: readonly ParamDef[] = [CONFIDENCE_LEVEL_PARAM];
