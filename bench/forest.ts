// Random forest learning speed: 100 trees on kazius Morgan fingerprints (radius 2, 2048
// bits, computed once by RDKit in the baseline script so both sides learn from the same
// bits), our forest in worker threads against scikit-learn's
// RandomForestClassifier(n_estimators=100, n_jobs=2) in its own process, same run.
// Also the holdout balanced accuracy of both (every fifth row held out).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { fitForestThreads } from '../src/algorithms/ml/forestThreads.ts';
import { predictForest } from '../src/algorithms/ml/forest.ts';
import { classificationStats } from '../src/algorithms/ml/metrics.ts';
import { sharedData } from '../test/helpers/data.ts';
import type { BenchModule } from './types.ts';

const BASELINE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'forestBaseline.py');
const OPTIONS = { classes: 2, trees: 100, mtry: 0, maxDepth: 40, minLeaf: 1, seed: 1 };

const bench: BenchModule = {
  title: 'Random forest learning (kazius, Morgan 2048)',
  run: async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'forest-bench-'));
    try {
      const file = path.join(dir, 'fingerprints.txt');
      const sk = JSON.parse(execFileSync('/usr/bin/python3', [BASELINE, sharedData('opentox-test', 'kazius.csv'), file], { encoding: 'utf8' })) as { rows: number; fit_seconds: number; holdout_ba: number };
      const lines = readFileSync(file, 'utf8').split('\n');
      const X = lines.map((l) => Array.from(l.slice(0, l.indexOf(' ')), (c) => (c === '1' ? 1 : 0)));
      const y = lines.map((l) => Number(l.slice(l.indexOf(' ') + 1)));
      let best = Infinity;
      for (let round = 0; round < 2; round++) {
        const t0 = performance.now();
        await fitForestThreads(X, y, OPTIONS, undefined, 2);
        best = Math.min(best, (performance.now() - t0) / 1000);
      }
      const test = y.map((_, i) => i % 5 === 4);
      const train = y.flatMap((_, i) => (test[i] ? [] : [i]));
      const held = y.flatMap((_, i) => (test[i] ? [i] : []));
      const forest = await fitForestThreads(train.map((i) => X[i]!), train.map((i) => y[i]!), OPTIONS, undefined, 2);
      const p = held.map((i) => predictForest(forest, X[i]!));
      const ba = classificationStats(held.map((i) => y[i]!), p.map((q) => (q[1]! > q[0]! ? 1 : 0)), p.map((q) => q[1]!), 2).balancedAccuracy;
      return [
        { bench: `fit 100 trees on ${sk.rows} x 2048 fingerprints, 2 threads (best of 2)`, figure: `${best.toFixed(1)} s`, baseline: `scikit-learn n_jobs=2 ${sk.fit_seconds.toFixed(1)} s`, ratio: `${(best / sk.fit_seconds).toFixed(2)} (goal <= 2)` },
        { bench: 'holdout balanced accuracy (every fifth row held out)', figure: ba.toFixed(3), baseline: `scikit-learn ${sk.holdout_ba.toFixed(3)}` },
      ];
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};

export default bench;
