// Kazius (Ames mutagenicity, 4,069 compounds) cross-validated through POST
// /validation/crossvalidation with kNN and random forest, 10 folds, seed 1, timed end to
// end; then the RDKit + scikit-learn baseline (bench/validationBaseline.py) on the very same
// folds. Run: npx tsx bench/validationKazius.ts [knn,random-forest] (default both; a learner
// with parameters, e.g. random-forest:trees=200, goes through its parameterised URI; tens of
// minutes on two busy cores).
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startApp } from '../test/helpers/app.ts';
import { followTask, uploadDataset } from '../test/helpers/datasets.ts';
import { sharedData } from '../test/helpers/data.ts';
import { algorithmById, ensureParameterised } from '../src/algorithms/catalogue.ts';
import { readParams, withDefaults } from '../src/algorithms/params.ts';

const csv = sharedData('opentox-test', 'kazius.csv');
const app = await startApp();
try {
  const dataset = (await uploadDataset(app, readFileSync(csv, 'utf8'), 'text/csv')).body;
  const nt = await (await fetch(dataset, { headers: { Accept: 'application/n-triples' } })).text();
  const line = nt.split('\n').find((l) => l.includes('#NominalFeature>') || l.includes('#NumericFeature>'))!;
  const feature = line.slice(1, line.indexOf('>'));
  const results: Array<Record<string, unknown>> = [];
  let folds: number[] = [];
  for (const spec of (process.argv[2] ?? 'knn,random-forest').split(',')) {
    const [id, query] = spec.split(':');
    const def = algorithmById(id!)!;
    const given = new URLSearchParams((query ?? '').replaceAll(';', '&'));
    const algorithm = query ? await ensureParameterised(app.deps, def, withDefaults(def.params, readParams(def.params, (n) => given.getAll(n)))) : `${app.url}/algorithm/${id}`;
    const started = Date.now();
    const res = await fetch(`${app.url}/validation/crossvalidation`, {
      method: 'POST',
      headers: { Accept: 'text/uri-list' },
      body: new URLSearchParams({ algorithm_uri: algorithm, dataset_uri: dataset, prediction_feature: feature, num_folds: '10', random_seed: '1' }),
    });
    const done = await followTask((await res.text()).trim(), 3 * 3600_000);
    const seconds = (Date.now() - started) / 1000;
    if (done.status !== 200) throw new Error(`${id}: ${done.status} ${done.body}`);
    const triples = await (await fetch(done.body, { headers: { Accept: 'application/n-triples' } })).text();
    const pooled = (term: string) => {
      const l = triples.split('\n').find((t) => t.startsWith(`<${done.body}#statistics>`) && t.includes(`#${term}>`));
      return l ? Number(l.split('"')[1]) : NaN;
    };
    // Row of each prediction (dc:identifier, 1-based) and its fold (1-based).
    const byNode = new Map<string, { row?: number; fold?: number }>();
    for (const t of triples.split('\n')) {
      const m = /^<([^>]*#prediction-\d+)> <([^>]*)> "(\d+)"/.exec(t);
      if (!m) continue;
      // The pattern's three groups take part in every match.
      const e = byNode.get(m[1]!) ?? {};
      if (m[2]!.endsWith('/identifier')) e.row = Number(m[3]);
      if (m[2]!.endsWith('#crossvalidationFold')) e.fold = Number(m[3]);
      byNode.set(m[1]!, e);
    }
    folds = [];
    for (const e of byNode.values()) folds[e.row! - 1] = e.fold! - 1;
    results.push({
      learner: `ours ${spec}`, seconds, n: pooled('numInstances'), accuracy: pooled('percentCorrect') / 100, balancedAccuracy: pooled('balancedAccuracy'),
      mcc: pooled('matthewsCorrelationCoefficient'), auc: pooled('areaUnderRoc'), validation: done.body,
    });
    console.log(JSON.stringify(results.at(-1)));
  }
  const file = path.join(os.tmpdir(), 'kazius-folds.json');
  writeFileSync(file, JSON.stringify(folds));
  const baseline = execFileSync('/usr/bin/python3', [new URL('./validationBaseline.py', import.meta.url).pathname, csv, file], { encoding: 'utf8' });
  console.log(baseline.trim());
} finally {
  await app.close();
}
