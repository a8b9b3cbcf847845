// Cross-validation and training/test split of a learning algorithm on one dataset: the
// rows with a measured prediction_feature are partitioned with the seed, a model is built
// per fold in the worker pool (folds run side by side, SPEC §4.3 progress per fold), each
// fold model is stored as a /model resource, and every held-out compound is predicted.
import type { AlgorithmIO } from '../algorithms/io.ts';
import { storeModel } from '../algorithms/apply.ts';
import { algorithmById } from '../algorithms/catalogue.ts';
import { taskOf } from '../algorithms/learning/trainer.ts';
import type { ParamValues } from '../algorithms/params.ts';
import { columnIndex, entryAt, numberOf, selectRows, type Table } from '../algorithms/table.ts';
import { BadRequest, NotFound } from '../errors.ts';
import { ATYPE, ERR } from '../rdf/vocab.ts';
import type { JobContext } from '../tasks/api.ts';
import type { FoldInput, FoldOutput } from './foldWorker.ts';
import { crossvalidationFolds, foldCount, trainingTestSplit } from './partition.ts';
import { figuresOfHeldOut, heldOut, type FoldResult, type HeldOut, type Task, type ValidationResult } from './validation.ts';
import { threadModule } from '../threads/threadModule.ts';
import { checkSizeLimits, targetCounts } from '../algorithms/sizeLimits.ts';
import { VALIDATION_PARAMS } from './validationParams.ts';

const FOLD_WORKER = threadModule('./foldWorker.ts', import.meta.url);

export interface LearningValidationParams {
  type: 'crossvalidation' | 'training_test_split';
  algorithmId: string;
  /** The (parameterised) algorithm URI: ot:algorithm of the fold models. */
  algorithmUri: string;
  values: ParamValues;
  datasetUri: string;
  predictionFeature: string;
  numFolds?: number;
  /** True when the client chose num_folds: then more folds than the data allow is a 400. */
  numFoldsSent?: boolean;
  splitRatio?: number;
  seed: number;
  /** Undefined: stratified for classification, not for regression. */
  stratified?: boolean;
  /** Level of each held-out compound's conformal interval or set (absent in jobs queued before it: the default). */
  confidenceLevel?: number;
}

/** What the algorithm can learn: both when it declares both, then decided by the target. */
export function learningTask(types: readonly { value: string }[], table: Table, target: number): Task {
  const supported: Task[] = [];
  if (types.some((t) => t.value === ATYPE.Classification.value)) supported.push('classification');
  if (types.some((t) => t.value === ATYPE.Regression.value)) supported.push('regression');
  return taskOf(table, target, supported);
}

/** Rows with a measured value, their class labels (sorted, as the trainer orders them). */
export function labelled(table: Table, target: number, task: Task): { rows: number[]; classes: string[] } {
  const rows = table.values.flatMap((r, i) => {
    const v = entryAt(r, target, 'cell');
    const ok = task === 'classification' ? v !== null && String(v).trim() !== '' : Number.isFinite(numberOf(v));
    return ok ? [i] : [];
  });
  const classes = task === 'classification' ? [...new Set(rows.map((i) => String(table.values[i]![target]).trim()))].sort() : []; // rows holds positions of table.values
  return { rows, classes };
}

function blankTarget(table: Table, target: number): Table {
  return { ...table, values: table.values.map((r) => r.map((v, j) => (j === target ? null : v))) };
}

export async function runLearningValidation(io: AlgorithmIO, p: LearningValidationParams, ctx: JobContext): Promise<ValidationResult> {
  const def = algorithmById(p.algorithmId);
  if (!def) throw new NotFound(`no algorithm ${p.algorithmId}`);
  const table = await io.load(io.ref(p.datasetUri), { subjectid: ctx.subjectid, signal: ctx.signal, predictionFeature: p.predictionFeature });
  const target = columnIndex(table, p.predictionFeature);
  if (target < 0) throw new BadRequest(`prediction_feature ${p.predictionFeature} is not a feature of dataset ${p.datasetUri}`, { code: ERR.PredictionFeatureNotInDataset });
  const task = learningTask(def.types, table, target);
  const { rows, classes } = labelled(table, target, task);
  if (rows.length < 2) throw new BadRequest(`prediction_feature ${p.predictionFeature} has fewer than two measured values in ${p.datasetUri}`, { code: ERR.InvalidParameter });
  const stratified = p.stratified ?? task === 'classification';
  // A remote dataset's size is known only now (a local one was checked before the task).
  if (p.numFoldsSent) checkSizeLimits(VALIDATION_PARAMS, { num_folds: p.numFolds! }, ['num_folds'], targetCounts(table, target, task === 'classification'), { feature: p.predictionFeature, dataset: p.datasetUri, stratified });
  const y = rows.map((i) => (task === 'classification' ? classes.indexOf(String(table.values[i]![target]).trim()) : 0)); // rows holds positions of table.values
  const partition = p.type === 'crossvalidation'
    ? crossvalidationFolds(y, p.numFolds!, p.seed, stratified)
    : trainingTestSplit(y, p.splitRatio!, p.seed, stratified);
  const k = foldCount(partition);
  ctx.progress(5);

  let done = 0;
  // One failed fold stops the others: the validation has failed.
  const failed = new AbortController();
  const outputs = await Promise.all(Array.from({ length: k }, async (_, f) => {
    const train = rows.filter((_, n) => partition[n] !== f);
    const test = rows.filter((_, n) => partition[n] === f);
    const input: FoldInput = {
      algorithmId: def.id, algorithmUri: p.algorithmUri, params: p.values, target, confidenceLevel: p.confidenceLevel,
      train: selectRows(table, train), test: blankTarget(selectRows(table, test), target),
    };
    let out: FoldOutput;
    try {
      out = await ctx.runInWorker<FoldOutput>(FOLD_WORKER, 'trainAndPredict', input, { signal: failed.signal });
    } catch (e) {
      if (!failed.signal.aborted && e instanceof Error) e.message = `fold ${f + 1} of ${k}: ${e.message}`;
      failed.abort();
      throw e;
    }
    ctx.progress(5 + (85 * ++done) / k);
    return { test, out };
  }));
  ctx.signal.throwIfAborted();

  const folds: FoldResult[] = [];
  const predictions: HeldOut[] = [];
  for (const [f, { test, out }] of outputs.entries()) {
    const model = await storeModel(io, def, { algorithmUri: p.algorithmUri, values: p.values, dataset: io.ref(p.datasetUri), predictionFeature: p.predictionFeature }, table, { kind: 'model', model: out.model });
    // test holds positions of table rows; the fold answers one prediction per test row.
    const held = test.map((i, t) => heldOut(i, entryAt(table.compounds, i, 'compound'), f, actualOf(entryAt(entryAt(table.values, i, 'row'), target, 'cell'), task), entryAt(out.predictions, t, 'held-out prediction'), classes, out.model.classes));
    predictions.push(...held);
    folds.push({ fold: f, model, figures: figuresOfHeldOut(held, task, classes) });
    ctx.progress(90 + (10 * (f + 1)) / k);
  }
  predictions.sort((a, b) => a.row - b.row);
  return {
    type: p.type,
    algorithm: p.algorithmUri,
    dataset: p.datasetUri,
    predictionFeature: p.predictionFeature,
    task,
    classes,
    numFolds: p.type === 'crossvalidation' ? k : undefined,
    splitRatio: p.splitRatio,
    seed: p.seed,
    stratified,
    folds,
    predictions,
    figures: figuresOfHeldOut(predictions, task, classes),
    withoutClass: table.compounds.length - rows.length,
    confidenceLevel: p.confidenceLevel,
  };
}

export function actualOf(cell: string | number | null, task: Task): string | number {
  return task === 'classification' ? String(cell).trim() : numberOf(cell);
}
