// What a model learns, classes or values, and why: scikit-learn's type_of_target rule on
// the endpoint's values (text, booleans and integers are classes; any non-integer number
// makes it continuous), with at most MAX_INTEGER_CLASSES distinct integers read as classes
// (more are a count or a measurement). The task parameter overrides; the model states the
// choice and its reason (apply.ts, own:task and own:taskReason).
import { BadRequest } from '../../errors.ts';
import { ERR } from '../../rdf/vocab.ts';
import { entryAt, numberOf, type Table } from '../table.ts';
import type { LearningTask } from './model.ts';

/** Most distinct integer values a numeric target may hold to be read as classes. */
export const MAX_INTEGER_CLASSES = 10;

export interface TaskChoice {
  task: LearningTask;
  /** One sentence for the model's RDF and page. */
  reason: string;
}

export function chooseTask(table: Table, target: number, supported: readonly LearningTask[], asked = 'auto'): TaskChoice {
  const column = entryAt(table.columns, target, 'column');
  const present = table.values.map((r) => entryAt(r, target, 'cell')).filter((v) => v !== null && v !== '');
  const numeric = !column.nominal && present.every((v) => Number.isFinite(numberOf(v)));
  const distinct = new Set(present.map((v) => (numeric ? String(numberOf(v)) : String(v).trim().toLowerCase())));
  const integers = numeric && present.every((v) => Number.isInteger(numberOf(v)));
  const codes = integers && distinct.size <= MAX_INTEGER_CLASSES;
  const kind = distinct.size > 2 ? 'multiclass' : 'binary';
  const only = supported.length === 1 ? supported[0] : undefined;
  let auto: TaskChoice;
  if (column.nominal) auto = { task: 'classification', reason: 'prediction_feature is a nominal feature (ot:NominalFeature): its values are classes' };
  else if (!numeric) auto = { task: 'classification', reason: `the endpoint's values are text (${distinct.size} distinct): classes (scikit-learn's type_of_target: ${kind})` };
  else if (codes && only === 'regression') auto = { task: 'regression', reason: `the endpoint's values are ${distinct.size} distinct integers, classes by scikit-learn's type_of_target (${kind}), but this algorithm does regression only` };
  else if (codes) auto = { task: 'classification', reason: `the endpoint's values are ${distinct.size} distinct integers (at most ${MAX_INTEGER_CLASSES}): classes (scikit-learn's type_of_target: ${kind})` };
  else if (integers) auto = { task: 'regression', reason: `the endpoint's values are ${distinct.size} distinct integers, more than ${MAX_INTEGER_CLASSES}: a quantity, not classes` };
  else auto = { task: 'regression', reason: `the endpoint's values include numbers that are not integers: a quantity (scikit-learn's type_of_target: continuous)` };
  const choice = asked === 'classification' || asked === 'regression' ? { task: asked as LearningTask, reason: `task=${asked} was asked (auto would choose ${auto.task}: ${auto.reason})` } : auto;
  const { task } = choice;
  if (task === 'regression' && !numeric) {
    const why = column.nominal ? 'is a nominal feature (ot:NominalFeature): its values are classes' : 'holds values that are not numbers';
    throw new BadRequest(`prediction_feature ${column.uri} ${why}; regression needs a numeric feature`, { code: ERR.InvalidParameter });
  }
  if (task === 'classification' && numeric && distinct.size > 2 && !codes) {
    throw new BadRequest(`prediction_feature ${column.uri} is numeric with ${distinct.size} distinct values: classification needs classes (a nominal feature, or at most ${MAX_INTEGER_CLASSES} integer codes)`, { code: ERR.InvalidParameter });
  }
  if (!supported.includes(task)) {
    const why = asked === task ? 'task asks' : column.nominal ? 'is a nominal feature (ot:NominalFeature), so it asks' : !numeric ? 'holds text, so it asks' : task === 'classification' ? `holds ${distinct.size} integer codes, so it asks` : 'is numeric, so it asks';
    throw new BadRequest(`prediction_feature ${column.uri} ${why} for ${task}, but this algorithm does ${supported.join(' and ')} only`, { code: ERR.InvalidParameter });
  }
  return choice;
}
