// Predictions of any trained model (learned endpoint or domain) for a table: what the
// model resource (/model/{id}) calls when a dataset is posted to it.
import type { Table } from '../table.ts';
import { predictDomain } from './domain.ts';
import type { PredictOptions, Prediction, TrainedModel } from './model.ts';
import { predictWith } from './trainer.ts';

export function predictModel(model: TrainedModel, table: Table, options: PredictOptions = {}): Promise<Prediction[]> {
  return model.task === 'domain' ? predictDomain(model, table) : predictWith(model, table, options);
}
