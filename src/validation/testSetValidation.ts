// Validation of a model on an external test set (OECD principle 4, predictivity): the
// model predicts test_dataset_uri, the measured values come from the same dataset or from
// test_target_dataset_uri (matched by compound; the model's dependent variable found by URI,
// owl:sameAs or title, targetMatch.ts), and the figures are given for the whole set and for
// the compounds inside and outside the model's applicability domain.
import type { AlgorithmIO } from '../algorithms/io.ts';
import type { ModelData } from '../algorithms/apply.ts';
import type { ScoredPrediction } from './foldWorker.ts';
import { entryAt, numberOf } from '../algorithms/table.ts';
import { readFeature } from '../features/features.ts';
import { matchTarget, matchTried, type MatchableFeature } from './targetMatch.ts';
import type { Deps } from '../deps.ts';
import { BadRequest } from '../errors.ts';
import { readModel } from '../models/models.ts';
import { ERR } from '../rdf/vocab.ts';
import type { JobContext } from '../tasks/api.ts';
import { actualOf } from './learningValidation.ts';
import { figuresOfHeldOut, heldOut, type HeldOut, type Task, type ValidationResult } from './validation.ts';
import { threadModule } from '../threads/threadModule.ts';

const PREDICT_WORKER = threadModule('./foldWorker.ts', import.meta.url);

export interface TestSetParams {
  model: string;
  testDataset: string;
  testTargetDataset?: string;
  /** Level of each test compound's conformal interval or set (absent in jobs queued before it: the default). */
  confidenceLevel?: number;
}

export async function runTestSetValidation(deps: Deps, io: AlgorithmIO, p: TestSetParams, ctx: JobContext): Promise<ValidationResult> {
  const { data } = await readModel(deps, p.model);
  const { model } = data as ModelData;
  if (model.task === 'domain') throw new BadRequest(`model_uri ${p.model} predicts no endpoint (an applicability domain model): nothing to validate`, { code: ERR.InvalidParameter });
  const task: Task = model.task;
  const load = (uri: string, predictionFeature?: string) => io.load(io.ref(uri), { subjectid: ctx.subjectid, signal: ctx.signal, predictionFeature });
  const table = await load(p.testDataset);
  const measured = p.testTargetDataset ? await load(p.testTargetDataset, model.target.uri) : table;
  const target = await targetOf(deps, model.target);
  const found = matchTarget(target, measured.columns);
  const source = p.testTargetDataset ? 'test_target_dataset_uri' : 'test_dataset_uri';
  if (!found) throw new BadRequest(`${source} ${measured.datasetUri} holds no values of the model's dependent variable ${model.target.uri} (looked for ${matchTried(target)})`, { code: ERR.PredictionFeatureNotInDataset });
  const column = found.index;
  const byCompound = new Map<string, string | number | null>();
  measured.compounds.forEach((c, i) => { if (!byCompound.has(c)) byCompound.set(c, entryAt(entryAt(measured.values, i, 'row'), column, 'cell')); });
  ctx.progress(20);

  const predictions = await ctx.runInWorker<ScoredPrediction[]>(PREDICT_WORKER, 'predictScored', { model, table, confidenceLevel: p.confidenceLevel });
  ctx.signal.throwIfAborted();
  ctx.progress(90);
  const rows: HeldOut[] = [];
  let withoutClass = 0;
  table.compounds.forEach((c, i) => {
    const v = byCompound.get(c) ?? null;
    const known = task === 'classification' ? v !== null && model.classes.includes(String(v).trim()) : Number.isFinite(numberOf(v));
    if (!known) {
      withoutClass++;
      return;
    }
    rows.push(heldOut(i, c, 0, actualOf(v, task), entryAt(predictions, i, 'prediction'), model.classes, model.classes)); // one prediction per row of table
  });
  const judged = rows.filter((h) => h.predicted !== null && h.inDomain !== undefined);
  const inside = judged.filter((h) => h.inDomain);
  const outside = judged.filter((h) => !h.inDomain);
  return {
    type: 'test_set_validation',
    algorithm: model.algorithmUri,
    model: p.model,
    dataset: p.testDataset,
    testTargetDataset: p.testTargetDataset,
    predictionFeature: model.target.uri,
    targetMatch: found.match,
    task,
    classes: model.classes,
    folds: [],
    predictions: rows,
    figures: figuresOfHeldOut(rows, task, model.classes),
    withoutClass,
    confidenceLevel: p.confidenceLevel,
    domain: judged.length === 0 ? undefined : {
      share: inside.length / judged.length,
      inside: figuresOfHeldOut(inside, task, model.classes),
      outside: figuresOfHeldOut(outside, task, model.classes),
    },
  };
}

/** The model's dependent variable with its units and owl:sameAs, as its feature says (its title alone when it is not stored here). */
export async function targetOf(deps: Deps, target: { uri: string; title: string }): Promise<MatchableFeature> {
  const f = await readFeature(deps, target.uri);
  return { uri: target.uri, title: f?.title ?? target.title, units: f?.units, sameAs: f?.sameAs };
}
