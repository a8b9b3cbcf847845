// Parameters whose bound is the data (ParamDef.limitedBy): a fold count cannot exceed the
// compounds with a value of prediction_feature (nor, stratified, the smallest class), nor a
// neighbour count the training set. A value the client sent beyond its bound is refused
// with 400 (SPEC §4.3); a default beyond it is lowered as the learners always did. For a
// local dataset this runs before any task; a remote one's size is known only once fetched,
// so there the job fails with the same report.
import { BadRequest, HttpError } from '../errors.ts';
import { ATYPE, ERR } from '../rdf/vocab.ts';
import type { LearningTask } from './learning/model.ts';
import { taskOf } from './learning/trainer.ts';
import { formatParam, type ParamDef, type ParamValues } from './params.ts';
import { columnIndex, entryAt, numberOf, type Table } from './table.ts';

export interface TargetCounts {
  /** Rows with a value of prediction_feature. */
  measured: number;
  /** The smallest class and its size, when classifying. */
  smallest?: { label: string; size: number };
}

/** Counts the measured rows of column `target`, per class when `classification`. */
export function targetCounts(table: Table, target: number, classification: boolean): TargetCounts {
  const sizes = new Map<string, number>();
  let measured = 0;
  for (const row of table.values) {
    const v = entryAt(row, target, 'cell');
    const ok = classification ? v !== null && String(v).trim() !== '' : Number.isFinite(numberOf(v));
    if (!ok) continue;
    measured++;
    if (classification) sizes.set(String(v).trim(), (sizes.get(String(v).trim()) ?? 0) + 1);
  }
  const [label, size] = [...sizes.entries()].sort((a, b) => a[1] - b[1] || a[0].localeCompare(b[0]))[0] ?? [];
  return label === undefined ? { measured } : { measured, smallest: { label, size: size! } };
}

/**
 * 400 (ERR.InvalidParameter) when a sent parameter exceeds the bound the data sets, naming
 * the parameter, its value and the limit.
 */
export function checkSizeLimits(defs: readonly ParamDef[], values: ParamValues, sent: readonly string[], counts: TargetCounts, where: { feature: string; dataset: string; stratified: boolean }): void {
  for (const p of defs) {
    if (!p.limitedBy || !sent.includes(p.name)) continue;
    const value = values[p.name];
    if (typeof value !== 'number') continue;
    const byClass = p.limitedBy === 'folds' && where.stratified && counts.smallest;
    const limit = byClass ? byClass.size : counts.measured;
    if (value <= limit) continue;
    const what = byClass
      ? `the members of the smallest class (${JSON.stringify(byClass.label)}) of prediction_feature ${where.feature} in ${where.dataset}, as the folds are stratified`
      : `the compounds with a value of prediction_feature ${where.feature} in ${where.dataset}`;
    throw new BadRequest(`parameter ${p.name}=${formatParam(value)} is invalid: the limit is ${limit}, ${what}`, { code: ERR.InvalidParameter });
  }
}

/**
 * The limits of the parameters `sent` to a learning algorithm of ot:type `types`, checked on
 * `table` (prediction_feature `feature` at least). Folds are stratified when classifying
 * unless `stratified` says otherwise. A target the algorithm cannot learn is left to the
 * run, which reports it as it always has.
 */
export function checkAgainstData(types: readonly { value: string }[], defs: readonly ParamDef[], values: ParamValues, sent: readonly string[], table: Table, feature: string, options: { asked?: string; stratified?: boolean } = {}): void {
  if (!defs.some((p) => p.limitedBy && sent.includes(p.name))) return;
  const target = columnIndex(table, feature);
  if (target < 0) return;
  const supported: LearningTask[] = [];
  if (types.some((t) => t.value === ATYPE.Classification.value)) supported.push('classification');
  if (types.some((t) => t.value === ATYPE.Regression.value)) supported.push('regression');
  let task: LearningTask;
  try {
    task = taskOf(table, target, supported, options.asked);
  } catch (e) {
    if (e instanceof HttpError) return;
    throw e;
  }
  const counts = targetCounts(table, target, task === 'classification');
  checkSizeLimits(defs, values, sent, counts, { feature, dataset: table.datasetUri, stratified: options.stratified ?? task === 'classification' });
}
