// Trains a model on a table: builds vectors, cross-validates with seeded folds (
// statistics on the training set travel with the model; not for a validation's fold model,
// TrainInput.crossvalidate; the out-of-fold predictions calibrate the conformal scores,
// conformal.ts; folds=0 skips all of this), then fits on every row.
import { BadRequest } from '../../errors.ts';
import { ERR } from '../../rdf/vocab.ts';
import { assignFolds } from '../ml/folds.ts';
import { classificationStats, regressionStats } from '../ml/metrics.ts';
import type { ParamValues } from '../params.ts';
import { entryAt, numberOf, type Cell, type Table } from '../table.ts';
import { learnerById, type RawPrediction } from './learners.ts';
import type { LearningTask, PredictOptions, Prediction, TrainedModel, Validation } from './model.ts';
import { chooseRepresentation, drawWeights, vectors } from './representation.ts';
import { calibrate, DEFAULT_CONFIDENCE_LEVEL, region } from './conformal.ts';
import { chooseTask } from './taskChoice.ts';

export { MAX_INTEGER_CLASSES } from './taskChoice.ts';

/** What the model learns (taskChoice.ts); a target the learner cannot learn answers 400 saying why. */
export function taskOf(table: Table, target: number, supported: readonly LearningTask[], asked = 'auto'): LearningTask {
  return chooseTask(table, target, supported, asked).task;
}

/** Class labels in a stable order: the feature's accept values when declared, else sorted. */
function classesOf(column: Table['columns'][number], labels: readonly Cell[]): string[] {
  const present = [...new Set(labels.filter((v) => v !== null && v !== '').map((v) => labelOf(v)))];
  const declared = (column.acceptValues ?? []).filter((v) => present.includes(v));
  const rest = present.filter((v) => !declared.includes(v)).sort((a, b) => (Number.isFinite(Number(a)) && Number.isFinite(Number(b)) ? Number(a) - Number(b) : a < b ? -1 : a > b ? 1 : 0));
  return [...declared, ...rest];
}

/** A class label as text: 1 and "1" and "1.0" are one class. */
function labelOf(v: Cell): string {
  const t = String(v).trim();
  return t !== '' && Number.isFinite(Number(t)) && /^[+-]?[\d.]+([eE][+-]?\d+)?$/.test(t) ? String(Number(t)) : t;
}

function impute(X: Array<number[]>, means: number[]): number[][] {
  return X.map((r) => r.map((v, j) => (Number.isFinite(v) ? v : means[j]!))); // one mean per vector position
}

export interface TrainInput {
  learner: string;
  table: Table;
  target: number;
  params: ParamValues;
  algorithmUri: string;
  fallback: 'morgan' | 'descriptors';
  /** Percent done (0-100): after the vectors, then per fold and per tree of each fit. */
  progress?: (percent: number) => void;
  /** False: no cross-validated statistics with the model (RunInput.crossvalidate, a validation's fold); the folds still calibrate it. */
  crossvalidate?: boolean;
}

export async function trainModel(input: TrainInput): Promise<TrainedModel> {
  const { table, target, params } = input;
  const learner = learnerById(input.learner);
  const { task, reason: taskReason } = chooseTask(table, target, learner.tasks, (params.task as string | undefined) ?? 'auto');
  const column = entryAt(table.columns, target, 'column');
  const rep = chooseRepresentation(table, target, params.representation as string, input.fallback, { radius: params.radius as number, bits: params.bits as number, maccs: params.maccs === true, toxicophores: params.toxicophores === true });
  if (rep.kind === 'features' && rep.uris.length === 0) throw new BadRequest('representation=features but the dataset has no numeric feature besides prediction_feature', { code: ERR.InvalidParameter });
  const vecs = await vectors(table, rep);
  input.progress?.(VECTORS_PERCENT);
  const labels = table.values.map((r) => entryAt(r, target, 'cell'));
  const classes = task === 'classification' ? classesOf(column, labels) : [];
  const rows: number[] = [];
  labels.forEach((label, i) => {
    const present = label !== null && label !== '' && (task === 'classification' || Number.isFinite(numberOf(label)));
    if (present && vecs[i]) rows.push(i);
  });
  if (rows.length < 2) throw new BadRequest(`prediction_feature ${column.uri} has fewer than two usable rows`, { code: ERR.InvalidParameter });
  if (task === 'classification' && classes.length < 2) throw new BadRequest(`prediction_feature ${column.uri} has a single class; classification needs two or more`, { code: ERR.InvalidParameter });
  // rows holds positions of labels and vecs, with a vector.
  const y = rows.map((i) => (task === 'classification' ? classes.indexOf(labelOf(labels[i]!)) : numberOf(labels[i]!)));
  const raw = rows.map((i) => vecs[i]!);
  const cols = raw[0]!.length; // rows.length >= 2
  const means = Array.from({ length: cols }, (_, j) => {
    const present = raw.map((r) => r[j]!).filter(Number.isFinite);
    return present.length ? present.reduce((s, v) => s + v, 0) / present.length : 0;
  });
  const X = impute(raw, means);
  const classCount = classes.length;
  // k fold fits and the final fit share the rest of the bar equally. The folds run for a
  // validation's fold model too: their out-of-fold predictions calibrate the conformal scores.
  // folds=0: the final fit alone, without statistics or conformal calibration.
  const k = Math.min(params.folds as number, y.length);
  const step = (fit: number) => input.progress && ((fraction: number) => input.progress!(VECTORS_PERCENT + ((100 - VECTORS_PERCENT) * (fit + fraction)) / (k + 1)));
  const weights = drawWeights(rep, (params.toxicophore_weight as number | undefined) ?? 1);
  const oof = k > 0 ? await outOfFold(input.learner, X, y, classCount, params, step(0) && ((f: number) => step(0)!(f * k)), weights) : undefined;
  // rows maps positions of y to rows of the table.
  const compounds = rows.map((i) => entryAt(table.compounds, i, 'compound'));
  const validation = input.crossvalidate === false || !oof ? undefined : statisticsOf(oof, y, classCount, params, compounds);
  const state = await learner.fit(X, y, classCount, params, step(k), weights);
  return {
    learner: input.learner,
    algorithmUri: input.algorithmUri,
    params,
    task,
    taskReason,
    trainingDataset: table.datasetUri,
    target: { uri: column.uri, title: column.title },
    classes,
    representation: rep,
    means,
    state,
    validation,
    calibration: oof && calibrate(y, oof.predicted, classCount, oof.folds),
    trainingSize: rows.length,
        // y holds indices of classes when classifying: every present label has its class.
    training: input.learner === 'knn' ? { compounds: rows.map((i) => entryAt(table.compounds, i, 'compound')), measured: y.map((v) => (task === 'classification' ? classes[v]! : v)) } : undefined,
  };
}

/** Share of a training run's progress taken by building the vectors. */
const VECTORS_PERCENT = 5;

interface OutOfFold {
  folds: number;
  /** Each row's prediction by the model of the folds that did not hold it (undefined: its fold was skipped). */
  predicted: Array<RawPrediction | undefined>;
}

/** `progress` receives the fraction of the cross-validation done, per fold and within each fit. */
async function outOfFold(learnerId: string, X: number[][], y: number[], classes: number, params: ParamValues, progress?: (fraction: number) => void, weights?: number[]): Promise<OutOfFold> {
  const learner = learnerById(learnerId);
  const k = Math.min(params.folds as number, y.length);
  const fold = assignFolds(y, k, params.seed as number, classes > 0);
  const predicted: Array<RawPrediction | undefined> = new Array(y.length);
  for (let f = 0; f < k; f++) {
    const train = y.map((_, i) => i).filter((i) => fold[i] !== f);
    const test = y.map((_, i) => i).filter((i) => fold[i] === f);
    if (test.length === 0 || train.length === 0) continue;
    // train and test hold positions of X and y.
    const state = await learner.fit(train.map((i) => X[i]!), train.map((i) => y[i]!), classes, params, progress && ((fraction) => progress((f + 0.9 * fraction) / k)), weights);
    learner.predict(state, test.map((i) => X[i]!)).forEach((p, t) => { predicted[test[t]!] = p; });
    progress?.((f + 1) / k);
  }
  return { folds: k, predicted };
}

/** With `compounds` (one per row of y) the held-out predictions are kept, by compound. */
function statisticsOf(oof: OutOfFold, y: number[], classes: number, params: ParamValues, compounds?: readonly string[]): Validation {
  // Rows of a fold skipped above have no prediction and stay out of the statistics.
  const done = y.flatMap((v, i) => {
    const p = oof.predicted[i];
    return p ? [{ actual: v, p, i }] : [];
  });
  const actual = done.map((d) => d.actual);
  const stats = classes > 0
    ? classificationStats(actual, done.map((d) => d.p.value), done.map((d) => d.p.score ?? d.p.value), classes)
    : regressionStats(actual, done.map((d) => d.p.value));
  const heldOut = compounds && done.map((d) => ({ compound: entryAt(compounds, d.i, 'compound'), actual: d.actual, predicted: d.p.value, score: d.p.score }));
  return { folds: oof.folds, seed: params.seed as number, stats, heldOut };
}

/** Predictions of `model` for every row of `table` (null where no vector can be built). */
export async function predictWith(model: TrainedModel, table: Table, options: PredictOptions = {}): Promise<Prediction[]> {
  const rep = model.representation;
  const vecs = await vectors(table, rep);
  const out: Prediction[] = table.values.map(() => ({ value: null }));
  // A row without a value of some feature gets no prediction rather than a training mean.
  // vecs has one entry per row of table, as out does.
  const rows = vecs.flatMap((v, i) => {
    if (!v) {
      entryAt(out, i, 'prediction').reason = rep.kind === 'features' ? 'no values' : 'no structure to compute its vector from';
      return [];
    }
    const gaps = v.flatMap((x, j) => (Number.isFinite(x) ? [] : [rep.kind === 'features' ? entryAt(rep.titles, j, 'feature title') : rep.kind === 'descriptors' ? entryAt(rep.names, j, 'descriptor') : `bit ${j}`]));
    if (gaps.length > 0) entryAt(out, i, 'prediction').reason = `no value of ${gaps.join(', ')}`;
    return gaps.length > 0 ? [] : [i];
  });
  const X = rows.map((i) => vecs[i]!);
  const raw = X.length > 0 ? learnerById(model.learner).predict(model.state, X) : [];
  const training = model.training;
  rows.forEach((i, t) => {
    const p = entryAt(raw, t, 'prediction'); // a learner predicts once per vector
    out[i] = {
      value: model.task === 'classification' ? entryAt(model.classes, p.value, 'class') : p.value,
      probability: model.task === 'classification' ? p.confidence : undefined,
      confidence: p.confidence,
      inDomain: p.inDomain,
      neighbours: training && p.neighbours?.map((n) => ({ compound: entryAt(training.compounds, n.row, 'training compound'), similarity: n.similarity, measured: entryAt(training.measured, n.row, 'training value') })),
    };
    if (model.calibration) {
      const r = region(model.calibration, p, model.classes.length, options.confidenceLevel ?? DEFAULT_CONFIDENCE_LEVEL);
      Object.assign(out[i]!, r.pValues ? { pValues: r.pValues, predictionSet: r.set!.map((c) => entryAt(model.classes, c, 'class')) } : { lower: r.lower, upper: r.upper });
    }
  });
  return out;
}
