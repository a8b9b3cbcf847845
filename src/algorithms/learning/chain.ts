// The feature calculation chain (as AMBIT and lazar called it): a model trained on
// descriptor features records, for each independent feature, the descriptor algorithm
// and parameters that made it, and computes those features for compounds of a dataset
// that lacks them. A feature it cannot compute is refused by name, never imputed.
import { BadRequest } from '../../errors.ts';
import { ERR } from '../../rdf/vocab.ts';
import { entryAt, type Table } from '../table.ts';
import type { AlgorithmDef, FeaturesResult } from '../types.ts';
import type { TrainedModel } from './model.ts';
import type { FeatureCalculation } from './representation.ts';

/** Features of the model's representation absent from `table`, with their calculation. */
function absent(model: TrainedModel, table: Table): Array<{ uri: string; title: string; calculation: FeatureCalculation | null }> {
  const rep = model.representation;
  if (rep.kind !== 'features') return [];
  const present = new Set(table.columns.map((c) => c.uri));
  return rep.uris.flatMap((uri, j) => (present.has(uri) ? [] : [{ uri, title: entryAt(rep.titles, j, 'feature title'), calculation: rep.calculations?.[j] ?? null }]));
}

/**
 * 400 naming every independent feature the dataset lacks and the model cannot compute
 * (SPEC §2.2: a model's ot:independentVariables are what it reads).
 */
export function checkComputable(model: TrainedModel, table: Table, modelUri: string): void {
  const missing = absent(model, table).filter((f) => !f.calculation);
  if (missing.length === 0) return;
  const list = missing.map((f) => `${f.title} <${f.uri}>`).join(', ');
  throw new BadRequest(`dataset ${table.datasetUri} lacks ${missing.length} of the independent variables of model ${modelUri}, and no descriptor algorithm of this service computes them: ${list}. Send a dataset with values of these features.`, { code: ERR.FeatureNotInDataset });
}

/**
 * `table` with the model's computable absent features added as columns, each computed by
 * running its algorithm with its parameters over the table's structures; matched to the
 * model's feature by title (one algorithm run gives every descriptor it was asked for).
 */
export async function withComputedFeatures(model: TrainedModel, table: Table, algorithmById: (id: string) => AlgorithmDef | undefined): Promise<Table> {
  const todo = absent(model, table).filter((f) => f.calculation);
  if (todo.length === 0) return table;
  const runs = new Map<string, { calculation: FeatureCalculation; result?: FeaturesResult }>();
  for (const f of todo) runs.set(f.calculation!.algorithmUri, { calculation: f.calculation! });
  const structures: Table = { ...table, columns: [], values: table.values.map(() => []) };
  for (const run of runs.values()) {
    const def = algorithmById(run.calculation.algorithm);
    if (!def) throw new BadRequest(`algorithm ${run.calculation.algorithm}, which computes features of this model, is no longer offered`, { code: ERR.FeatureNotInDataset });
    const result = await def.run({ table: structures, params: run.calculation.params, algorithmUri: run.calculation.algorithmUri });
    if (result.kind !== 'features') throw new BadRequest(`algorithm ${def.id} does not compute features per compound`, { code: ERR.FeatureNotInDataset });
    run.result = result;
  }
  const columns = [...table.columns];
  const values = table.values.map((r) => [...r]);
  for (const f of todo) {
    const result = runs.get(f.calculation!.algorithmUri)!.result!;
    const j = result.columns.findIndex((c) => c.title === f.title);
    if (j < 0) throw new BadRequest(`algorithm ${f.calculation!.algorithmUri} no longer computes ${f.title} <${f.uri}>`, { code: ERR.FeatureNotInDataset });
    columns.push({ ...result.columns[j]!, uri: f.uri }); // j was found in result.columns
    values.forEach((row, i) => row.push(entryAt(entryAt(result.values, i, 'result row'), j, 'cell')));
  }
  return { ...table, columns, values };
}
