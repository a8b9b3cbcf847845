// Normalisation: numeric features scaled into a new dataset. Scaled values are
// new features (ot:hasSource the parameterised algorithm); other columns are copied.
import { ATYPE } from '../../rdf/vocab.ts';
import { entryAt, numberOf, numericColumns, type Cell } from '../table.ts';
import type { AlgorithmDef } from '../types.ts';

export const normalization: AlgorithmDef = {
  id: 'normalise',
  title: 'Feature scaling',
  description: 'Scales every numeric feature: minmax maps it onto [0,1], zscore to mean 0 and standard deviation 1. The result is a new dataset whose scaled features are new features.',
  types: [ATYPE.Normalization, ATYPE.Preprocessing, ATYPE.Unsupervised],
  supervised: false,
  params: [{ name: 'method', type: 'string', default: 'minmax', choices: ['minmax', 'zscore'], description: 'minmax or zscore' }],
  run: async ({ table, params }) => {
    const numeric = new Set(numericColumns(table));
    const scale = table.columns.map((_, j) => {
      if (!numeric.has(j)) return undefined;
      const v = table.values.map((r) => numberOf(entryAt(r, j, 'cell'))).filter(Number.isFinite);
      const mean = v.reduce((s, x) => s + x, 0) / v.length;
      const sd = Math.sqrt(v.reduce((s, x) => s + (x - mean) ** 2, 0) / v.length);
      const min = Math.min(...v);
      const max = Math.max(...v);
      return params.method === 'zscore' ? { offset: mean, factor: sd || 1 } : { offset: min, factor: max - min || 1 };
    });
    const columns = table.columns.map((c, j) => (scale[j] ? { uri: '', title: `${c.title} (${params.method as string})`, numeric: true, description: `${c.title} scaled by ${params.method as string} from ${c.uri}` } : c));
    const values = table.values.map((row) => row.map((v, j): Cell => {
      const s = scale[j];
      if (!s) return v;
      const x = numberOf(v);
      return Number.isFinite(x) ? (x - s.offset) / s.factor : null;
    }));
    return { kind: 'table', table: { ...table, columns, values }, created: [...numeric] };
  },
};
