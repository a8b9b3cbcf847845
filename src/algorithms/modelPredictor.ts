// How models this service trains (kind MODEL_KIND) predict at POST /model/{id}: the
// dataset as a table, the feature calculation chain checked, the predictions computed in a
// worker thread (DESIGN: heavy computation off the event loop). Built once at boot into
// deps.predictors.
import type { Deps } from '../deps.ts';
import type { Predictor } from '../models/predictors.ts';
import type { ModelData } from './apply.ts';
import { tableOf } from './datasetIO.ts';
import { checkComputable } from './learning/chain.ts';
import type { Prediction } from './learning/model.ts';
import { conformalCells, conformalUris } from './learning/conformalOutputs.ts';
import { threadModule } from '../threads/threadModule.ts';

const WORKER = threadModule('./worker.ts', import.meta.url);

export function modelPredictor(deps: Deps): Predictor {
  return async (input) => {
    const { model, predicted, neighbours } = input.data as ModelData;
    const table = await tableOf(deps, input.dataset, input.subjectid);
    checkComputable(model, table, input.model.uri);
    const predictions = await deps.tasks.runInWorker<Prediction[]>(WORKER, 'predictInWorker', { model, table, confidenceLevel: input.confidenceLevel }, { signal: input.signal });
    const order = input.model.predictedVariables;
    const warnings: string[] = [];
    const values = predictions.map((p, i) => {
      if (p.value === null) warnings.push(`no prediction for ${input.dataset.compounds[i]}: ${p.reason ?? `no structure or values to build its ${model.representation.kind} vector`}`);
      return [...order.map((f) => {
        if (f === predicted.value) return p.value;
        if (f === predicted.confidence) return p.confidence ?? null;
        if (f === predicted.inDomain) return p.inDomain === undefined ? null : String(p.inDomain);
        return null;
      }), ...conformalCells(predicted.conformal, p)];
    });
    return { values, warnings, features: [...order, ...conformalUris(predicted.conformal)], neighbours: neighbours && { output: neighbours, rows: predictions.map((p) => p.neighbours) } };
  };
}
