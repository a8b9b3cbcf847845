// Feature selection (SPEC §4.1): variance and correlation filters and the top k
// by a univariate statistic. Each answers the URIs of the selected features.
import { ATYPE } from '../../rdf/vocab.ts';
import { entryAt, numberOf, numericColumns, type Table } from '../table.ts';
import type { AlgorithmDef } from '../types.ts';

function column(table: Table, j: number): number[] {
  return table.values.map((r) => numberOf(entryAt(r, j, 'cell')));
}

function variance(xs: number[]): number {
  const v = xs.filter(Number.isFinite);
  const mean = v.reduce((s, x) => s + x, 0) / (v.length || 1);
  return v.reduce((s, x) => s + (x - mean) ** 2, 0) / (v.length || 1);
}

/** Pearson correlation over rows where both are present (0 when undefined). */
export function pearson(a: number[], b: number[]): number {
  const rows = a.flatMap((x, i) => (Number.isFinite(x) && Number.isFinite(b[i]) ? [i] : []));
  if (rows.length < 2) return 0;
  // rows holds only positions where both a and b have a finite number.
  const ma = rows.reduce((s, i) => s + a[i]!, 0) / rows.length;
  const mb = rows.reduce((s, i) => s + b[i]!, 0) / rows.length;
  let sab = 0;
  let saa = 0;
  let sbb = 0;
  for (const i of rows) {
    const da = a[i]! - ma;
    const db = b[i]! - mb;
    sab += da * db; saa += da ** 2; sbb += db ** 2;
  }
  return saa === 0 || sbb === 0 ? 0 : sab / Math.sqrt(saa * sbb);
}

export const varianceFilter: AlgorithmDef = {
  id: 'fs-variance',
  title: 'Feature selection: variance filter',
  description: 'Selects the numeric features whose variance over the dataset exceeds the threshold (threshold 0 drops constant features).',
  types: [ATYPE.FeatureSelection, ATYPE.Preprocessing, ATYPE.Unsupervised],
  supervised: false,
  params: [{ name: 'threshold', type: 'float', default: 0, min: 0, description: 'Variance a feature must exceed' }],
  run: async ({ table, target, params }) => ({
    kind: 'selection',
    featureUris: numericColumns(table, target === undefined ? [] : [target])
      .filter((j) => variance(column(table, j)) > (params.threshold as number))
      .map((j) => entryAt(table.columns, j, 'column').uri),
  }),
};

export const correlationFilter: AlgorithmDef = {
  id: 'fs-correlation',
  title: 'Feature selection: correlation filter',
  description: 'Keeps numeric features in dataset order, dropping each one whose absolute Pearson correlation with an already kept feature exceeds max_correlation.',
  types: [ATYPE.FeatureSelection, ATYPE.Preprocessing, ATYPE.Unsupervised],
  supervised: false,
  params: [{ name: 'max_correlation', type: 'float', default: 0.95, min: 0, minExclusive: true, max: 1, description: 'Largest absolute correlation allowed between two kept features, in (0,1]' }],
  run: async ({ table, target, params }) => {
    const kept: Array<{ j: number; values: number[] }> = [];
    for (const j of numericColumns(table, target === undefined ? [] : [target])) {
      const values = column(table, j);
      if (variance(values) === 0) continue;
      if (kept.every((k) => Math.abs(pearson(k.values, values)) <= (params.max_correlation as number))) kept.push({ j, values });
    }
    return { kind: 'selection', featureUris: kept.map((k) => entryAt(table.columns, k.j, 'column').uri) };
  },
};

export const topK: AlgorithmDef = {
  id: 'fs-topk',
  title: 'Feature selection: top k by correlation with the target',
  description: 'Selects the k numeric features with the largest absolute Pearson correlation with prediction_feature (point-biserial for a two-class target).',
  types: [ATYPE.FeatureSelection, ATYPE.Preprocessing, ATYPE.Supervised],
  supervised: true,
  params: [{ name: 'k', type: 'int', default: 10, min: 1, max: 1000000, description: 'Number of features to select' }],
  run: async ({ table, target, params }) => {
    const raw = table.values.map((r) => entryAt(r, target!, 'cell'));
    const labels = [...new Set(raw.filter((v) => v !== null).map((v) => String(v)))].sort();
    const y = raw.map((v) => (v === null ? NaN : Number.isFinite(numberOf(v)) ? numberOf(v) : labels.indexOf(String(v))));
    const scored = numericColumns(table, [target!]).map((j) => ({ j, r: Math.abs(pearson(column(table, j), y)) }));
    scored.sort((a, b) => b.r - a.r || a.j - b.j);
    return { kind: 'selection', featureUris: scored.slice(0, params.k as number).map((s) => entryAt(table.columns, s.j, 'column').uri) };
  },
};
