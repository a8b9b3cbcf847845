// SMARTS match and count for a list of patterns: one feature per pattern,
// either the number of unique matches or 1/0 for presence.
import { ATYPE } from '../../rdf/vocab.ts';
import { checkSmarts, countMatches } from '../../chem/smartsCount.ts';
import type { AlgorithmDef } from '../types.ts';

export const smartsMatch: AlgorithmDef = {
  id: 'smarts',
  title: 'SMARTS pattern match and count',
  description: 'For each SMARTS pattern of the list, the number of unique matches in every compound (count=true) or whether it matches at all (count=false).',
  types: [ATYPE.DescriptorCalculation, ATYPE.Structural, ATYPE.Topological],
  supervised: false,
  needsStructures: true,
  perRow: true,
  params: [
    { name: 'smarts', type: 'list', mandatory: true, description: 'SMARTS patterns, one per value (repeat the parameter or separate by newlines)' },
    { name: 'count', type: 'boolean', default: true, description: 'Count unique matches instead of reporting presence (1/0)' },
  ],
  validate: (params) => checkSmarts(params.smarts as string[], 'smarts'),
  run: async ({ table, params }) => {
    const patterns = params.smarts as string[];
    await checkSmarts(patterns, 'smarts');
    const counts = await countMatches(table.smiles, patterns);
    const values = params.count ? counts : counts.map((r) => r.map((v) => (v === null ? null : v > 0 ? 1 : 0)));
    return {
      kind: 'features',
      columns: patterns.map((p) => ({ uri: '', title: `${params.count ? 'count' : 'match'} of SMARTS ${p}`, numeric: true, description: p })),
      values,
    };
  },
};
