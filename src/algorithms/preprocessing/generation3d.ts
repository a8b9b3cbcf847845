// 3D conformers for every compound of a dataset, made by the
// compound service's openchemlib conformer generator; the answer is a dataset of the
// conformer URIs, each with its compound's values.
import { ATYPE } from '../../rdf/vocab.ts';
import type { AlgorithmDef } from '../types.ts';

export const generation3d: AlgorithmDef = {
  id: 'generate3d',
  title: '3D conformer generation',
  description: 'Generates up to count distinct 3D conformers (openchemlib conformer generator, MMFF94s+ minimised, stereo checked against the InChI) for every compound of the dataset and stores them as conformers of their compounds. The result is a dataset of conformer URIs; compounds that cannot be embedded are named in its warnings.',
  types: [ATYPE.Generation3D, ATYPE.Preprocessing],
  supervised: false,
  needsStructures: true,
  params: [{ name: 'count', type: 'int', default: 1, min: 1, max: 20, description: 'Conformers per compound' }],
  run: async ({ params }) => ({ kind: 'conformers', count: params.count as number }),
};
