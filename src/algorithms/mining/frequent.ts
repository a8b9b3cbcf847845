// Frequent substructure mining: linear fragments found in at least
// min_support of the compounds; the supervised variant keeps those whose presence is
// significantly associated with prediction_feature (chi-square). Each output feature is a
// fragment, titled by its SMARTS, with ot:hasSource the parameterised algorithm.
import { ATYPE } from '../../rdf/vocab.ts';
import { fragmentTitle, linearFragments } from '../../chem/fragments.ts';
import { chiSquare } from '../ml/chiSquare.ts';
import type { ParamDef } from '../params.ts';
import type { AlgorithmDef, FeaturesResult, RunInput } from '../types.ts';
import { entryAt, numberOf, type Table } from '../table.ts';

const common: ParamDef[] = [
  { name: 'min_support', type: 'float', default: 0.05, min: 0, minExclusive: true, max: 1, description: 'Minimum fraction of compounds a fragment must occur in, in (0,1]' },
  { name: 'max_bonds', type: 'int', default: 5, min: 1, max: 10, description: 'Longest fragment, in bonds' },
  { name: 'max_features', type: 'int', default: 1000, min: 1, max: 100000, description: 'Most fragments kept, the most frequent (or most significant) first' },
];

interface Mined { smarts: string; rows: number[] }

interface Mining { found: Mined[]; structures: number; parsed: boolean[] }

async function mine(input: RunInput): Promise<Mining> {
  const { table, params } = input;
  const sets = await linearFragments(table.smiles, params.max_bonds as number);
  const structures = sets.filter((s) => s !== undefined).length;
  const rowsOf = new Map<string, number[]>();
  sets.forEach((set, i) => { for (const f of set ?? []) { const r = rowsOf.get(f) ?? []; r.push(i); rowsOf.set(f, r); } });
  const minCount = Math.max(1, Math.ceil((params.min_support as number) * structures));
  const found = [...rowsOf].filter(([, rows]) => rows.length >= minCount).map(([smarts, rows]) => ({ smarts, rows }));
  return { found, structures, parsed: sets.map((set) => set !== undefined) };
}

/** Presence (1/0) of each kept fragment per row (0 for a structure without bonds); null where there is no structure. */
function asFeatures(input: RunInput, parsed: boolean[], kept: Mined[], describe: (m: Mined) => string): FeaturesResult {
  const values = input.table.values.map((_, i) => kept.map(() => (parsed[i] ? 0 : null) as number | null));
  kept.forEach((m, j) => { for (const i of m.rows) entryAt(values, i, 'row')[j] = 1; });
  return {
    kind: 'features',
    columns: kept.map((m) => ({ uri: '', title: m.smarts, numeric: true, description: `${fragmentTitle(m.smarts)}: ${describe(m)}` })),
    values,
  };
}

/**
 * Class of each row for the chi-square test: the value itself for a nominal or two-valued
 * target, above or below the median for a numeric one (regression endpoints).
 */
function classLabels(table: Table, target: number): Array<string | null> {
  const raw = table.values.map((r) => {
    const v = entryAt(r, target, 'cell');
    return v === '' ? null : v;
  });
  const numbers = raw.map((v) => (v === null ? NaN : numberOf(v)));
  const present = numbers.filter(Number.isFinite).sort((a, b) => a - b);
  const numeric = present.length === raw.filter((v) => v !== null).length && new Set(present).size > 2;
  if (!numeric) return raw.map((v) => (v === null ? null : String(v).trim()));
  const median = present[Math.floor(present.length / 2)]!; // numeric: more than two values
  return numbers.map((v) => (Number.isFinite(v) ? (v >= median ? 'high' : 'low') : null));
}

export const frequentMining: AlgorithmDef = {
  id: 'fsm',
  title: 'Frequent substructure mining (linear fragments)',
  description: 'Finds the linear fragments (paths of up to max_bonds bonds, written as SMARTS) occurring in at least min_support of the compounds; each becomes a 1/0 feature.',
  types: [ATYPE.PatternMining, ATYPE.DescriptorCalculation, ATYPE.Unsupervised, ATYPE.Structural],
  supervised: false,
  needsStructures: true,
  params: common,
  run: async (input) => {
    const { found, structures, parsed } = await mine(input);
    found.sort((a, b) => b.rows.length - a.rows.length || (a.smarts < b.smarts ? -1 : 1));
    const kept = found.slice(0, input.params.max_features as number);
    return asFeatures(input, parsed, kept, (m) => `support ${(m.rows.length / structures).toFixed(4)}`);
  },
};

export const supervisedMining: AlgorithmDef = {
  id: 'fsm-supervised',
  title: 'Supervised substructure mining (chi-square)',
  description: 'Frequent linear fragments whose presence is significantly associated with the classes of prediction_feature by a chi-square test (p below significance); each becomes a 1/0 feature.',
  types: [ATYPE.PatternMining, ATYPE.DescriptorCalculation, ATYPE.Supervised, ATYPE.Structural],
  supervised: true,
  needsStructures: true,
  params: [...common, { name: 'significance', type: 'float', default: 0.05, min: 0, minExclusive: true, max: 1, description: 'Largest chi-square p-value of a kept fragment, in (0,1]' }],
  run: async (input) => {
    const { table, target, params } = input;
    const labels = classLabels(table, target!);
    const classes = [...new Set(labels.filter((l): l is string => l !== null))].sort();
    const { found, parsed } = await mine(input);
    const labelled = labels.flatMap((l, i) => (l !== null && table.smiles[i] ? [i] : []));
    const scored = found.map((m) => {
      const has = new Set(m.rows);
      const counts: [number[], number[]] = [classes.map(() => 0), classes.map(() => 0)];
      // labelled rows have a label, and classes holds every label.
      for (const i of labelled) counts[has.has(i) ? 1 : 0][classes.indexOf(labels[i]!)]!++;
      return { ...m, ...chiSquare(counts) };
    }).filter((m) => m.p <= (params.significance as number));
    scored.sort((a, b) => a.p - b.p || b.statistic - a.statistic);
    const kept = scored.slice(0, params.max_features as number);
    return asFeatures(input, parsed, kept, (m) => {
      const s = scored.find((x) => x.smarts === m.smarts)!;
      return `chi-square ${s.statistic.toFixed(3)} (df ${s.df}), p ${s.p.toExponential(3)}`;
    });
  },
};
