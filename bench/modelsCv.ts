// Cross-validated quality of our learners on kazius (mutagenicity), hamster
// carcinogenicity and EPAFHM (log10 LC50), 5 folds, seed 1, on Morgan fingerprints (the
// random forest with its defaults and with toxicophores=true, trees=500), beside
// scikit-learn's random forest on the same rows and folds (bench/modelsCvBaseline.py).
// Also kNN's 10-fold cross-validation time on kazius beside scikit-learn's kNN (Jaccard).
// npm run bench -- modelsCv (BENCH_CV_SETS=kazius for kazius alone)
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { algorithmById } from '../src/algorithms/catalogue.ts';
import { withDefaults, type ParamValues } from '../src/algorithms/params.ts';
import { trainModel } from '../src/algorithms/learning/trainer.ts';
import { vectors } from '../src/algorithms/learning/representation.ts';
import { assignFolds } from '../src/algorithms/ml/folds.ts';
import type { ClassificationStats, RegressionStats } from '../src/algorithms/ml/metrics.ts';
import type { Table } from '../src/algorithms/table.ts';
import { csvTable } from '../test/helpers/csvTable.ts';
import type { BenchModule, BenchRow } from './types.ts';

const BASELINE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'modelsCvBaseline.py');

const CONFIGS: Array<[string, string, ParamValues]> = [
  ['knn', 'knn', { k: 5 }],
  ['random-forest', 'randomForest', {}],
  ['random-forest', 'randomForest', { toxicophores: true, trees: 500 }],
];

/** EPAFHM as regression on log10 LC50 (mmol), rows without a value dropped. */
function epafhm(): Table {
  const t = csvTable('EPAFHM.csv');
  const keep = t.values.flatMap((r, i) => (typeof r[0] === 'number' && r[0] > 0 ? [i] : []));
  return { ...t, compounds: keep.map((i) => t.compounds[i]!), smiles: keep.map((i) => t.smiles[i]!), columns: [{ ...t.columns[0]!, title: 'log10 LC50 (mmol)' }], values: keep.map((i) => [Math.log10(t.values[i]![0] as number)]) };
}

const f3 = (v: number) => v.toFixed(3);
const quality = (s: ClassificationStats | RegressionStats | { ba?: number; auc?: number; r2?: number; rmse?: number }) =>
  'balancedAccuracy' in s ? `BA ${f3(s.balancedAccuracy)}, AUC ${f3(s.auc)}` : 'ba' in s && s.ba !== undefined ? `BA ${f3(s.ba)}, AUC ${f3(s.auc!)}` : `R² ${f3((s as RegressionStats).r2)}, RMSE ${f3((s as RegressionStats).rmse)}`;

const bench: BenchModule = {
  title: 'Models: 5-fold cross-validation beside scikit-learn',
  run: async () => {
    const rows: BenchRow[] = [];
    const dir = mkdtempSync(path.join(os.tmpdir(), 'models-cv-'));
    try {
      const only = process.env.BENCH_CV_SETS?.split(',');
      const sets = ([['kazius', () => csvTable('kazius.csv'), false], ['hamster', () => csvTable('hamster_carcinogenicity.csv'), false], ['EPAFHM log10 LC50', epafhm, true]] as Array<[string, () => Table, boolean]>)
        .filter(([name]) => !only || only.some((o) => name.startsWith(o)));
      for (const [name, make, regression] of sets) {
        const table = make();
        const vecs = await vectors(table, { kind: 'morgan', radius: 2, bits: 2048 });
        const used = table.values.flatMap((r, i) => (vecs[i] && r[0] !== null && r[0] !== '' ? [i] : []));
        const labels = used.map((i) => table.values[i]![0]);
        const classes = regression ? [] : [...new Set(labels.map(String))].sort();
        const y = labels.map((v) => (regression ? Number(v) : classes.indexOf(String(v))));
        const file = path.join(dir, 'folds.json');
        writeFileSync(file, JSON.stringify({ smiles: used.map((i) => table.smiles[i]), y, folds: assignFolds(y, 5, 1, !regression), regression }));
        const sk = quality(JSON.parse(execFileSync('/usr/bin/python3', [BASELINE, file], { encoding: 'utf8' })));
        if (name === 'kazius') {
          // kNN's 10-fold cross-validation: ours (fingerprints, the 10 folds and the final fit) against scikit-learn's folds alone.
          const folds = assignFolds(y, 10, 1, true);
          writeFileSync(file, JSON.stringify({ smiles: used.map((i) => table.smiles[i]), y, folds, regression, knn: true }));
          const knn = JSON.parse(execFileSync('/usr/bin/python3', [BASELINE, file], { encoding: 'utf8' })) as { seconds: number; ba: number };
          const t0 = performance.now();
          const model = await trainModel({ learner: 'knn', table, target: 0, params: withDefaults(algorithmById('knn')!.params, { representation: 'morgan', folds: 10 }), algorithmUri: 'knn', fallback: 'morgan' });
          const seconds = (performance.now() - t0) / 1000;
          rows.push({ bench: `knn 10-fold CV on kazius (fingerprints + folds + final fit), BA ${f3((model.validation!.stats as ClassificationStats).balancedAccuracy)}`, figure: `${seconds.toFixed(1)} s`, baseline: `scikit-learn kNN (Jaccard) on the same folds ${knn.seconds.toFixed(1)} s, BA ${f3(knn.ba)}`, ratio: `${(seconds / knn.seconds).toFixed(2)} (goal <= 1.0)` });
        }
        for (const [id, learner, explicit] of CONFIGS) {
          const def = algorithmById(id)!;
          const t0 = performance.now();
          const model = await trainModel({ learner, table, target: 0, params: withDefaults(def.params, { representation: 'morgan', ...explicit }), algorithmUri: id, fallback: 'morgan' });
          const shown = Object.entries(explicit).map(([k, v]) => `${k}=${v}`).join(' ');
          rows.push({ bench: `${id}${shown ? ` (${shown})` : ''} on ${name}, n ${model.validation!.stats.n}, CV + final fit ${((performance.now() - t0) / 1000).toFixed(0)} s`, figure: quality(model.validation!.stats), baseline: `scikit-learn RF: ${sk}` });
        }
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    return rows;
  },
};

export default bench;
