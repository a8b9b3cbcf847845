// Trains a model on a table: builds vectors, cross-validates with seeded folds (
// statistics on the training set travel with the model), then fits on every row.
import { BadRequest } from '../../errors.ts';
import { ERR } from '../../rdf/vocab.ts';
import { assignFolds } from '../ml/folds.ts';
import { classificationStats, regressionStats } from '../ml/metrics.ts';
import type { ParamValues } from '../params.ts';
import { numberOf, type Table } from '../table.ts';
import { LEARNERS, type RawPrediction } from './learners.ts';
import type { LearningTask, Prediction, TrainedModel, Validation } from './model.ts';
import { chooseRepresentation, vectors } from './representation.ts';

/** Classification when the target is text or takes at most two values (e.g. 1/0, true/false). */
export function taskOf(table: Table, target: number, supported: readonly LearningTask[]): LearningTask {
  if (supported.length === 1) return supported[0];
  const present = table.values.map((r) => r[target]).filter((v) => v !== null && v !== '');
  const numeric = present.every((v) => Number.isFinite(numberOf(v)));
  const distinct = new Set(present.map((v) => String(v).trim().toLowerCase()));
  return numeric && distinct.size > 2 ? 'regression' : 'classification';
}

function impute(X: Array<number[]>, means: number[]): number[][] {
  return X.map((r) => r.map((v, j) => (Number.isFinite(v) ? v : means[j])));
}

export interface TrainInput {
  learner: string;
  table: Table;
  target: number;
  params: ParamValues;
  algorithmUri: string;
  fallback: 'morgan' | 'descriptors';
}

export async function trainModel(input: TrainInput): Promise<TrainedModel> {
  const { table, target, params } = input;
  const learner = LEARNERS[input.learner];
  const task = taskOf(table, target, learner.tasks);
  const column = table.columns[target];
  const rep = chooseRepresentation(table, target, params.representation as string, input.fallback, { radius: params.radius as number, bits: params.bits as number });
  if (rep.kind === 'features' && rep.uris.length === 0) throw new BadRequest('representation=features but the dataset has no numeric feature besides prediction_feature', { code: ERR.InvalidParameter });
  const vecs = await vectors(table, rep);
  const labels = table.values.map((r) => r[target]);
  const classes = task === 'classification'
    ? [...new Set(labels.filter((v) => v !== null && v !== '').map((v) => String(v).trim()))].sort()
    : [];
  const rows: number[] = [];
  table.values.forEach((_, i) => {
    const present = labels[i] !== null && labels[i] !== '' && (task === 'classification' || Number.isFinite(numberOf(labels[i])));
    if (present && vecs[i]) rows.push(i);
  });
  if (rows.length < 2) throw new BadRequest(`prediction_feature ${column.uri} has fewer than two usable rows`, { code: ERR.InvalidParameter });
  if (task === 'classification' && classes.length < 2) throw new BadRequest(`prediction_feature ${column.uri} has a single class; classification needs two or more`, { code: ERR.InvalidParameter });
  const y = rows.map((i) => (task === 'classification' ? classes.indexOf(String(labels[i]).trim()) : numberOf(labels[i])));
  const raw = rows.map((i) => vecs[i]!);
  const cols = raw[0].length;
  const means = Array.from({ length: cols }, (_, j) => {
    const present = raw.map((r) => r[j]).filter(Number.isFinite);
    return present.length ? present.reduce((s, v) => s + v, 0) / present.length : 0;
  });
  const X = impute(raw, means);
  const classCount = classes.length;
  const validation = crossValidate(input.learner, X, y, classCount, params);
  const state = learner.fit(X, y, classCount, params);
  return {
    learner: input.learner,
    algorithmUri: input.algorithmUri,
    params,
    task,
    trainingDataset: table.datasetUri,
    target: { uri: column.uri, title: column.title },
    classes,
    representation: rep,
    means,
    state,
    validation,
    trainingSize: rows.length,
  };
}

export function crossValidate(learnerId: string, X: number[][], y: number[], classes: number, params: ParamValues): Validation {
  const learner = LEARNERS[learnerId];
  const k = Math.min(params.folds as number, y.length);
  const seed = params.seed as number;
  const fold = assignFolds(y, k, seed, classes > 0);
  const predicted: RawPrediction[] = new Array(y.length);
  for (let f = 0; f < k; f++) {
    const train = y.map((_, i) => i).filter((i) => fold[i] !== f);
    const test = y.map((_, i) => i).filter((i) => fold[i] === f);
    if (test.length === 0 || train.length === 0) continue;
    const state = learner.fit(train.map((i) => X[i]), train.map((i) => y[i]), classes, params);
    learner.predict(state, test.map((i) => X[i])).forEach((p, t) => { predicted[test[t]] = p; });
  }
  const done = y.map((_, i) => i).filter((i) => predicted[i]);
  const actual = done.map((i) => y[i]);
  const stats = classes > 0
    ? classificationStats(actual, done.map((i) => predicted[i].value), done.map((i) => predicted[i].score ?? predicted[i].value), classes)
    : regressionStats(actual, done.map((i) => predicted[i].value));
  return { folds: k, seed, stats };
}

/** Predictions of `model` for every row of `table` (null where no vector can be built). */
export async function predictWith(model: TrainedModel, table: Table): Promise<Prediction[]> {
  const vecs = await vectors(table, model.representation);
  const rows = vecs.flatMap((v, i) => (v ? [i] : []));
  const X = impute(rows.map((i) => vecs[i]!), model.means);
  const raw = LEARNERS[model.learner].predict(model.state, X);
  const out: Prediction[] = table.values.map(() => ({ value: null }));
  rows.forEach((i, t) => {
    const p = raw[t];
    out[i] = {
      value: model.task === 'classification' ? model.classes[p.value] : p.value,
      probability: model.task === 'classification' ? p.confidence : undefined,
      confidence: p.confidence,
      inDomain: p.inDomain,
    };
  });
  return out;
}
