// POST /validation/report/algorithm_comparison: learners cross-validated on the same
// folds of the same dataset, side by side, with a paired t-test per figure over the folds
// (pairedTest.ts). The validations must share dataset, prediction_feature and every
// compound's fold, or the per-fold figures are not paired.
import { DataFactory } from 'n3';
import type { Deps } from '../deps.ts';
import { BadRequest } from '../errors.ts';
import { ERR, OT } from '../rdf/vocab.ts';
import { csvField } from '../rdf/csvCell.ts';
import { bound } from '../store/api.ts';
import { pairedTTest, type PairedTest } from './pairedTest.ts';
import { predictionRows, validationGraph } from './validations.ts';

const { namedNode } = DataFactory;

/** Figure names of the report, with the statistics term each is read from. */
const TERMS: Record<string, { term: string; scale?: number }> = {
  accuracy: { term: OT.percentCorrect.value, scale: 0.01 },
  balancedAccuracy: { term: OT.balancedAccuracy.value },
  sensitivity: { term: OT.truePositiveRate.value },
  specificity: { term: OT.trueNegativeRate.value },
  mcc: { term: OT.matthewsCorrelationCoefficient.value },
  auc: { term: OT.areaUnderRoc.value },
  r2: { term: OT.rSquare.value },
  q2: { term: OT.qSquare.value },
  rmse: { term: OT.rootMeanSquaredError.value },
  mae: { term: OT.meanAbsoluteError.value },
};

export interface ComparedValidation {
  validation: string;
  algorithm: string;
  /** Pooled figure over all held-out predictions. */
  pooled: Record<string, number>;
  /** Figure of each fold, folds in order. */
  perFold: Record<string, number[]>;
}

export interface Comparison {
  dataset: string;
  predictionFeature: string;
  numFolds: number;
  measures: string[];
  validations: ComparedValidation[];
  tests: Array<{ a: string; b: string; measure: string } & PairedTest>;
}

async function one(deps: Deps, uri: string) {
  const g = await validationGraph(deps, uri);
  const own = (p: { value: string }) => g.find((q) => q.subject.value === uri && q.predicate.value === p.value)?.object.value;
  if (own(OT.validationType) !== 'crossvalidation') throw new BadRequest(`validation_uris: ${uri} is not a cross-validation`, { code: ERR.InvalidParameter });
  const stats = own(OT.classificationStatistics) ?? own(OT.regressionStatistics)!;
  const pooled: Record<string, number> = {};
  const perFold: Record<string, number[]> = {};
  for (const [name, { term, scale = 1 }] of Object.entries(TERMS)) {
    const v = g.find((q) => q.subject.value === stats && q.predicate.value === term)?.object.value;
    if (v !== undefined) pooled[name] = Number(v) * scale;
  }
  for (const row of await deps.store.select('validation-fold-figures', { validation: namedNode(uri) })) {
    const measure = bound(row, 'measure');
    const found = Object.entries(TERMS).find(([, t]) => t.term === measure);
    if (!found) continue;
    const [name, { scale = 1 }] = found;
    (perFold[name] ??= [])[Number(bound(row, 'fold')) - 1] = Number(bound(row, 'value')) * scale;
  }
  const folds = (await predictionRows(deps, uri)).map((r) => `${r.row}:${r.fold}`).join(',');
  return { uri, algorithm: own(OT.algorithm) ?? '', dataset: own(OT.dataset) ?? '', feature: own(OT.predictionFeature) ?? '', numFolds: Number(own(OT.numFolds)), pooled, perFold, folds };
}

export async function compareAlgorithms(deps: Deps, uris: readonly string[]): Promise<Comparison> {
  if (uris.length < 2) throw new BadRequest('validation_uris needs two or more cross-validations to compare', { code: ERR.MissingParameter });
  const all: Array<Awaited<ReturnType<typeof one>>> = [];
  for (const u of uris) all.push(await one(deps, u));
  const first = all[0]!; // uris.length >= 2
  for (const v of all.slice(1)) {
    if (v.dataset !== first.dataset || v.feature !== first.feature) throw new BadRequest(`validation_uris: ${v.uri} validates another dataset or prediction_feature than ${first.uri}`, { code: ERR.InvalidParameter });
    if (v.folds !== first.folds) throw new BadRequest(`validation_uris: ${v.uri} has other folds than ${first.uri} (use the same num_folds, random_seed and stratified)`, { code: ERR.InvalidParameter });
  }
  const measures = Object.keys(TERMS).filter((m) => all.every((v) => v.perFold[m]?.length));
  const tests: Comparison['tests'] = [];
  for (const [i, a] of all.entries()) {
    for (const b of all.slice(i + 1)) {
      // measures holds the figures every validation has per fold.
      for (const measure of measures) tests.push({ a: a.uri, b: b.uri, measure, ...pairedTTest(a.perFold[measure]!, b.perFold[measure]!) });
    }
  }
  return {
    dataset: first.dataset,
    predictionFeature: first.feature,
    numFolds: first.numFolds,
    measures,
    validations: all.map((v) => ({ validation: v.uri, algorithm: v.algorithm, pooled: v.pooled, perFold: v.perFold })),
    tests,
  };
}

/** The report as one CSV table: a row per validation, then a row per paired test. */
export function comparisonCsv(c: Comparison): string {
  const fmt = (x: number | undefined) => (x === undefined || Number.isNaN(x) ? '' : String(x));
  const mean = (v: number[] = []) => v.reduce((s, x) => s + x, 0) / v.length;
  const lines = [['validation', 'algorithm', ...c.measures.flatMap((m) => [m, `${m}_fold_mean`])].map(csvField).join(',')];
  for (const v of c.validations) lines.push([csvField(v.validation), csvField(v.algorithm), ...c.measures.flatMap((m) => [fmt(v.pooled[m]), fmt(mean(v.perFold[m]))])].join(','));
  lines.push('', 'a,b,measure,folds,mean_difference,t,df,p');
  for (const t of c.tests) lines.push([csvField(t.a), csvField(t.b), csvField(t.measure), t.n, fmt(t.meanDifference), fmt(t.t), t.df, fmt(t.p)].join(','));
  return lines.map((l) => l + '\r\n').join('');
}
