// External test sets split by hand: a training file and a test file uploaded separately
// with the same header give two features of one title; test-set validation finds the
// model's dependent variable in the test set by that title (targetMatch.ts), says so, and
// its figures agree with scikit-learn on the same predictions. At the confidence_level asked,
// the per-compound CSV carries each test compound's conformal interval or p-values and set,
// and the coverage the test counts from it is the one the validation reports.
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { startApp, type TestApp } from '../helpers/app.ts';
import { followTask, uploadDataset } from '../helpers/datasets.ts';
import { sharedData } from '../helpers/data.ts';
import { turtle } from '../helpers/tasks.ts';
import { OT, ownTerms } from '../../src/rdf/vocab.ts';

async function run(url: string, fields: Record<string, string>): Promise<{ status: number; body: string }> {
  const res = await fetch(url, { method: 'POST', headers: { Accept: 'text/uri-list' }, body: new URLSearchParams(fields) });
  const text = (await res.text()).trim();
  return res.status === 202 ? followTask(text) : { status: res.status, body: text };
}

const nt = async (url: string) => (await fetch(url, { headers: { Accept: 'application/n-triples' } })).text();
const featureOf = async (dataset: string, title: string) => {
  const line = (await nt(dataset)).split('\n').find((l) => l.includes(`/title> "${title}"`) && l.includes('/feature/'))!;
  return line.slice(1, line.indexOf('>'));
};

/** Every fifth data row held out: the training and the test file, each with the header. */
function split(file: string): { training: string; test: string } {
  const [head, ...rows] = readFileSync(sharedData('opentox-test', file), 'utf8').trim().split(/\r?\n/);
  return { training: [head, ...rows.filter((_, i) => i % 5 !== 0)].join('\n') + '\n', test: [head, ...rows.filter((_, i) => i % 5 === 0)].join('\n') + '\n' };
}

/** scikit-learn's figures of the (actual, predicted) pairs. */
function sklearn(kind: 'classification' | 'regression', actual: string[], predicted: string[]): Record<string, number> {
  const script = `import sys, json
from sklearn import metrics
job = json.load(sys.stdin)
a, p = job['actual'], job['predicted']
if job['kind'] == 'regression':
    a, p = [float(x) for x in a], [float(x) for x in p]
    import numpy as np
    out = {'q2': metrics.r2_score(a, p), 'r2': float(np.corrcoef(a, p)[0, 1] ** 2), 'rmse': metrics.mean_squared_error(a, p) ** 0.5, 'mae': metrics.mean_absolute_error(a, p)}
else:
    out = {'accuracy': metrics.accuracy_score(a, p), 'balanced': metrics.balanced_accuracy_score(a, p), 'mcc': metrics.matthews_corrcoef(a, p)}
print(json.dumps(out))`;
  return JSON.parse(execFileSync('/usr/bin/python3', ['-c', script], { input: JSON.stringify({ kind, actual, predicted }), encoding: 'utf8', timeout: 60_000 })) as Record<string, number>;
}

/** Level of the test sets' conformal regions (not the default, so that the parameter is seen to be used). */
const LEVEL = 0.8;

const csvRows = (text: string) => {
  const [head, ...rest] = text.trim().split(/\r\n/);
  const names = head!.split(',');
  return rest.map((l) => Object.fromEntries(l.split(',').map((v, i) => [names[i], v])));
};

describe('external test sets match the dependent variable by meaning', function () {
  this.timeout(600_000);
  let app: TestApp;
  before(async () => { app = await startApp(); });
  after(async () => { await app.close(); });

  const cases = [
    { file: 'hamster_carcinogenicity.csv', title: 'Hamster Carcinogenicity', kind: 'classification' as const, algorithm: 'random-forest' },
    { file: 'EPAFHM.csv', title: 'LC50_mmol', kind: 'regression' as const, algorithm: 'knn' },
  ];
  for (const c of cases) {
    it(`${c.file}: two uploads with one header validate (${c.kind}), the match recorded, figures as scikit-learn computes them`, async () => {
      const { training, test } = split(c.file);
      const train = (await uploadDataset(app, training, 'text/csv')).body;
      const held = (await uploadDataset(app, test, 'text/csv')).body;
      const target = await featureOf(train, c.title);
      const testFeature = await featureOf(held, c.title);
      expect(testFeature).to.not.equal(target);
      const model = await run(`${app.url}/algorithm/${c.algorithm}`, { dataset_uri: train, prediction_feature: target, folds: '2', ...(c.algorithm === 'random-forest' ? { trees: '30' } : {}) });
      expect(model.status, model.body).to.equal(200);
      // As SPEC-era clients send it: the measured values named by test_target_dataset_uri (here the test file itself).
      const v = await run(`${app.url}/validation/test_set_validation`, { model_uri: model.body, test_dataset_uri: held, test_target_dataset_uri: held, confidence_level: String(LEVEL) });
      expect(v.status, v.body).to.equal(200);
      const res = await fetch(v.body, { headers: { Accept: 'text/turtle' } });
      expect(res.headers.get('content-type')).to.match(/^text\/turtle/);
      const g = turtle(await res.text());
      expect(g.value(v.body, ownTerms(app.url).targetMatch)).to.equal('title');
      const rows = csvRows(await (await fetch(`${v.body}?media=text/csv`)).text()).filter((r) => r.predicted !== '');
      expect(rows.length).to.be.greaterThan(c.kind === 'regression' ? 100 : 15);
      const judged = sklearn(c.kind, rows.map((r) => r.actual!), rows.map((r) => r.predicted!));
      const stats = g.value(v.body, c.kind === 'regression' ? OT.regressionStatistics : OT.classificationStatistics)!;
      expect(Number(g.value(stats, OT.numInstances))).to.equal(rows.length);
      if (c.kind === 'regression') {
        // Q² is scikit-learn's r2_score of the predictions; R² the squared correlation (docs/validation.md).
        expect(Number(g.value(stats, OT.qSquare))).to.be.closeTo(judged.q2!, 1e-9);
        expect(Number(g.value(stats, OT.rSquare))).to.be.closeTo(judged.r2!, 1e-9);
        expect(Number(g.value(stats, OT.rootMeanSquaredError))).to.be.closeTo(judged.rmse!, 1e-9);
        expect(Number(g.value(stats, OT.meanAbsoluteError))).to.be.closeTo(judged.mae!, 1e-9);
      } else {
        expect(Number(g.value(stats, OT.percentCorrect))).to.be.closeTo(100 * judged.accuracy!, 1e-9);
        expect(Number(g.value(stats, OT.balancedAccuracy))).to.be.closeTo(judged.balanced!, 1e-9);
        expect(Number(g.value(stats, OT.matthewsCorrelationCoefficient))).to.be.closeTo(judged.mcc!, 1e-9);
      }
      // Coverage on the held-out rows, counted here from the CSV; the service's figure must agree.
      const statistics = `${v.body}#statistics`;
      expect(Number(g.value(v.body, OT.confidenceLevel))).to.equal(LEVEL);
      let covered: number;
      if (c.kind === 'regression') {
        for (const r of rows) expect(Number(r.predicted)).to.be.within(Number(r.lower), Number(r.upper));
        covered = rows.filter((r) => Number(r.actual) >= Number(r.lower) && Number(r.actual) <= Number(r.upper)).length;
        const w = rows.map((r) => Number(r.upper) - Number(r.lower)).sort((a, b) => a - b);
        expect(Number(g.value(statistics, OT.medianIntervalWidth))).to.be.closeTo(w.length % 2 ? w[w.length >> 1]! : (w[w.length / 2 - 1]! + w[w.length / 2]!) / 2, 1e-9);
      } else {
        const classes = Object.keys(rows[0]!).filter((k) => k.startsWith('p_value_')).map((k) => k.slice('p_value_'.length));
        expect(classes).to.deep.equal(['false', 'true']);
        const sets = rows.map((r) => r.prediction_set!.replace(/^\{|\}$/g, '').split('; ').filter(Boolean));
        rows.forEach((r, i) => expect(sets[i]).to.deep.equal(classes.filter((k) => Number(r[`p_value_${k}`]) > 1 - LEVEL + 1e-12)));
        covered = rows.filter((r, i) => sets[i]!.includes(r.actual!)).length;
        expect(Number(g.value(statistics, OT.meanPredictionSetSize))).to.be.closeTo(sets.reduce((n, x) => n + x.length, 0) / rows.length, 1e-9);
      }
      expect(Number(g.value(statistics, OT.empiricalCoverage))).to.be.closeTo(covered / rows.length, 1e-9);
      // Binomial spread of a coverage on this many compounds: 4 standard deviations.
      expect(covered / rows.length).to.be.within(LEVEL - 4 * Math.sqrt((LEVEL * (1 - LEVEL)) / rows.length), 1);
    });
  }

  for (const level of ['0', '1', 'high']) {
    it(`confidence_level=${level}: 400 naming the range (0,1) before any task`, async () => {
      const before = (await (await fetch(`${app.url}/task`, { headers: { Accept: 'text/uri-list' } })).text()).trim();
      const res = await fetch(`${app.url}/validation/test_set_validation`, { method: 'POST', headers: { Accept: 'text/plain' }, body: new URLSearchParams({ model_uri: `${app.url}/model/1`, test_dataset_uri: `${app.url}/dataset/1`, confidence_level: level }) });
      expect(res.status).to.equal(400);
      expect(await res.text()).to.contain('confidence_level').and.to.contain('(0,1)');
      expect((await (await fetch(`${app.url}/task`, { headers: { Accept: 'text/uri-list' } })).text()).trim()).to.equal(before);
    });
  }

  it('a test set without the title answers 400 before any task, saying what was looked for', async () => {
    const { training } = split('hamster_carcinogenicity.csv');
    const train = (await uploadDataset(app, training, 'text/csv')).body;
    const other = (await uploadDataset(app, 'SMILES,Mouse Carcinogenicity\nCC=O,true\nCCO,false\n', 'text/csv')).body;
    const model = await run(`${app.url}/algorithm/knn`, { dataset_uri: train, prediction_feature: await featureOf(train, 'Hamster Carcinogenicity'), folds: '2' });
    const res = await fetch(`${app.url}/validation/test_set_validation`, { method: 'POST', headers: { Accept: 'text/plain' }, body: new URLSearchParams({ model_uri: model.body, test_dataset_uri: other }) });
    expect(res.status).to.equal(400);
    expect(await res.text()).to.contain('PredictionFeatureNotInDataset').and.contain('by URI, by owl:sameAs or by the title "Hamster Carcinogenicity"');
  });
});
