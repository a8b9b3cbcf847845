// /validation over HTTP on a temp data directory: bad input answers 400 naming the
// parameter before any task exists; cross-validation, training/test split and external
// test-set validation run as tasks; their resources, CSV, lists and the comparison report.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { startApp, type TestApp } from '../helpers/app.ts';
import { followTask, lines, uploadDataset } from '../helpers/datasets.ts';
import { sharedData } from '../helpers/data.ts';
import { turtle } from '../helpers/tasks.ts';
import { OT, RDF } from '../../src/rdf/vocab.ts';
import { algorithmById, ensureParameterised } from '../../src/algorithms/catalogue.ts';
import { withDefaults } from '../../src/algorithms/params.ts';
import { sleep } from '../helpers/tasks.ts';

const form = (fields: Record<string, string>) => new URLSearchParams(fields);
const post = (url: string, fields: Record<string, string>) =>
  fetch(url, { method: 'POST', headers: { Accept: 'text/uri-list' }, body: form(fields) });

async function run(url: string, fields: Record<string, string>): Promise<string> {
  const res = await post(url, fields);
  const text = (await res.text()).trim();
  const done = res.status === 202 ? await followTask(text) : { status: res.status, body: text };
  expect(done.status, done.body).to.equal(200);
  return done.body;
}

const ttl = async (url: string) => {
  const res = await fetch(url, { headers: { Accept: 'text/turtle' } });
  expect(res.status).to.equal(200);
  expect(res.headers.get('content-type')).to.match(/^text\/turtle/);
  return turtle(await res.text());
};

/** CSV rows as objects keyed by the header. */
const csvRows = (text: string) => {
  const [head, ...rest] = text.trim().split(/\r\n/);
  const names = head!.split(',');
  return rest.map((l) => Object.fromEntries(l.split(',').map((v, i) => [names[i], v])));
};

describe('/validation', function () {
  this.timeout(300_000);
  let app: TestApp;
  let hamster: string;
  let target: string;
  before(async () => {
    app = await startApp();
    hamster = (await uploadDataset(app, readFileSync(sharedData('opentox-test', 'hamster_carcinogenicity.mini.bool_string.csv'), 'utf8'), 'text/csv')).body;
    const nt = await (await fetch(hamster, { headers: { Accept: 'application/n-triples' } })).text();
    const feature = nt.split('\n').find((l) => l.includes('#NominalFeature>') || l.includes('#NumericFeature>'))!;
    target = feature.slice(1, feature.indexOf('>'));
  });
  after(async () => { await app.close(); });

  const cv = (extra: Record<string, string> = {}) => ({ algorithm_uri: `${app.url}/algorithm/knn`, dataset_uri: hamster, prediction_feature: target, ...extra });
  const bad: Array<[string, string, () => Record<string, string>, string]> = [
    ['no algorithm_uri', 'crossvalidation', () => ({ dataset_uri: hamster, prediction_feature: target }), 'algorithm_uri'],
    ['unknown algorithm', 'crossvalidation', () => cv({ algorithm_uri: `${app.url}/algorithm/nonesuch` }), 'algorithm_uri'],
    ['foreign algorithm', 'crossvalidation', () => cv({ algorithm_uri: 'http://example.org/algorithm/knn' }), 'algorithm_uri'],
    ['descriptor algorithm', 'crossvalidation', () => cv({ algorithm_uri: `${app.url}/algorithm/physchem` }), 'not a learning algorithm'],
    ['applicability domain (learns no endpoint)', 'crossvalidation', () => cv({ algorithm_uri: `${app.url}/algorithm/applicability-domain` }), 'not a learning algorithm'],
    ['no prediction_feature', 'crossvalidation', () => ({ algorithm_uri: `${app.url}/algorithm/knn`, dataset_uri: hamster }), 'prediction_feature'],
    ['prediction_feature not in the dataset', 'crossvalidation', () => cv({ prediction_feature: 'http://example.org/feature/x' }), 'prediction_feature'],
    ['num_folds 1', 'crossvalidation', () => cv({ num_folds: '1' }), 'num_folds'],
    ['num_folds 101', 'crossvalidation', () => cv({ num_folds: '101' }), 'num_folds'],
    ['num_folds not a number', 'crossvalidation', () => cv({ num_folds: 'ten' }), 'num_folds'],
    ['stratified maybe', 'crossvalidation', () => cv({ stratified: 'maybe' }), 'stratified'],
    ['split_ratio 0', 'training_test_split', () => cv({ split_ratio: '0' }), 'split_ratio'],
    ['split_ratio 1', 'training_test_split', () => cv({ split_ratio: '1' }), 'split_ratio'],
    ['split_ratio 1.5', 'training_test_split', () => cv({ split_ratio: '1.5' }), 'split_ratio'],
    ['no model_uri', 'test_set_validation', () => ({ test_dataset_uri: hamster }), 'model_uri'],
    ['model_uri not a model', 'test_set_validation', () => ({ model_uri: `${app.url}/model/999`, test_dataset_uri: hamster }), 'model_uri'],
  ];
  for (const [name, path, fields, named] of bad) {
    it(`400 before a task for ${name}`, async () => {
      const res = await fetch(`${app.url}/validation/${path}`, { method: 'POST', headers: { Accept: 'text/plain' }, body: form(fields()) });
      expect(res.status).to.equal(400);
      expect(await res.text()).to.contain(named);
    });
  }

  it('no task is created for a bad request', async () => {
    const tasks = async () => (await fetch(`${app.url}/task`, { headers: { Accept: 'text/uri-list' } })).text();
    const before = await tasks();
    for (const [, path, fields] of bad) await fetch(`${app.url}/validation/${path}`, { method: 'POST', body: form(fields()) });
    expect(await tasks()).to.equal(before);
  });

  let first: string;
  it('cross-validates kNN: folds, a model per fold, every held-out prediction, figures per fold and pooled', async () => {
    first = await run(`${app.url}/validation/crossvalidation`, cv({ num_folds: '3', random_seed: '5' }));
    expect(first).to.match(/\/validation\/\d+$/);
    const g = await ttl(first);
    expect(g.has(first, RDF.type, OT.Crossvalidation)).to.equal(true);
    expect(g.value(first, OT.numFolds)).to.equal('3');
    expect(g.value(first, OT.stratified)).to.equal('true');
    const folds = g.store.getSubjects(OT.crossvalidation, g.store.getObjects(null, OT.crossvalidation, null)[0]!, null);
    expect(folds).to.have.length(3);
    for (const fold of folds) {
      const model = g.value(fold.value, OT.model)!;
      expect((await fetch(model, { headers: { Accept: 'text/turtle' } })).status).to.equal(200);
    }
    const res = await fetch(first, { headers: { Accept: 'text/csv' } });
    expect(res.headers.get('content-type')).to.match(/^text\/csv/);
    const rows = csvRows(await res.text());
    expect(rows).to.have.length(10);
    expect(new Set(rows.map((r) => r.fold))).to.deep.equal(new Set(['1', '2', '3']));
    // The pooled percentCorrect is the share of rows whose prediction equals the measured class.
    const correct = rows.filter((r) => r.predicted === r.actual).length;
    const stats = g.value(first, OT.classificationStatistics)!;
    expect(Number(g.value(stats, OT.percentCorrect))).to.be.closeTo((100 * correct) / rows.filter((r) => r.predicted !== '').length, 1e-9);
    expect(g.store.getObjects(null, OT.matthewsCorrelationCoefficient, null)).to.have.length(4);
    // The ROC score is the probability of the positive class ("true"): above 0.5 exactly when
    // that class is predicted; the AUC counts the (positive, negative) pairs it ranks right.
    const scored = rows.filter((r) => r.predicted !== '');
    for (const r of scored) expect(Number(r.positive_class_score) > 0.5, JSON.stringify(r)).to.equal(r.predicted === 'true');
    const pos = scored.filter((r) => r.actual === 'true').map((r) => Number(r.positive_class_score));
    const neg = scored.filter((r) => r.actual === 'false').map((r) => Number(r.positive_class_score));
    const pairs = pos.reduce((s, p) => s + neg.reduce((t, n) => t + (p > n ? 1 : p === n ? 0.5 : 0), 0), 0);
    expect(Number(g.value(stats, OT.areaUnderRoc))).to.be.closeTo(pairs / (pos.length * neg.length), 1e-9);
    const literal = g.store.getObjects(stats, OT.areaUnderRoc, null)[0] as { datatype: { value: string } };
    expect(literal.datatype.value).to.equal('http://www.w3.org/2001/XMLSchema#double');
  });

  it('the same seed gives the same folds and figures; another seed other folds', async () => {
    const again = await run(`${app.url}/validation/crossvalidation`, cv({ num_folds: '3', random_seed: '5' }));
    const other = await run(`${app.url}/validation/crossvalidation`, cv({ num_folds: '3', random_seed: '6' }));
    const csv = async (u: string) => (await fetch(`${u}?media=text/csv`)).text();
    expect(await csv(again)).to.equal(await csv(first));
    expect(await csv(other)).to.not.equal(await csv(first));
  });

  it('every RDF syntax', async () => {
    for (const [accept, marker] of [['application/rdf+xml', 'ot:Validation'], ['application/n-triples', '#Validation>'], ['application/ld+json', 'Validation'], ['text/n3', 'ot:Validation']] as Array<[string, string]>) {
      const res = await fetch(first, { headers: { Accept: accept } });
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.contain(accept);
      expect(await res.text()).to.contain(marker);
    }
  });

  it('regression: R², Q², RMSE and MAE match the held-out predictions; compounds without a value are not tested', async () => {
    const epa = (await uploadDataset(app, readFileSync(sharedData('opentox-test', 'EPAFHM.mini.csv'), 'utf8'), 'text/csv')).body;
    const nt = await (await fetch(epa, { headers: { Accept: 'application/n-triples' } })).text();
    const line = nt.split('\n').find((l) => l.includes('#NumericFeature>'))!;
    const v = await run(`${app.url}/validation/crossvalidation`, { algorithm_uri: `${app.url}/algorithm/knn`, dataset_uri: epa, prediction_feature: line.slice(1, line.indexOf('>')), num_folds: '4' });
    const g = await ttl(v);
    expect(g.value(v, OT.stratified)).to.equal('false');
    const rows = csvRows(await (await fetch(`${v}?media=text/csv`)).text()).filter((r) => r.predicted !== '');
    expect(Number(g.value(v, OT.numWithoutClass))).to.be.greaterThan(0);
    const y = rows.map((r) => Number(r.actual));
    const f = rows.map((r) => Number(r.predicted));
    const mean = y.reduce((s, x) => s + x, 0) / y.length;
    const press = y.reduce((s, x, i) => s + (x - f[i]!) ** 2, 0);
    const ss = y.reduce((s, x) => s + (x - mean) ** 2, 0);
    const stats = g.value(v, OT.regressionStatistics)!;
    expect(Number(g.value(stats, OT.qSquare))).to.be.closeTo(1 - press / ss, 1e-9);
    expect(Number(g.value(stats, OT.rootMeanSquaredError))).to.be.closeTo(Math.sqrt(press / y.length), 1e-9);
    expect(Number(g.value(stats, OT.meanAbsoluteError))).to.be.closeTo(y.reduce((s, x, i) => s + Math.abs(x - f[i]!), 0) / y.length, 1e-9);
    expect(Number(g.value(stats, OT.rSquare))).to.be.within(0, 1);
  });

  it('training/test split: one model, about 1 − split_ratio of the compounds tested', async () => {
    const v = await run(`${app.url}/validation/training_test_split`, cv({ split_ratio: '0.7', random_seed: '2' }));
    const g = await ttl(v);
    expect(g.value(v, OT.validationType)).to.equal('training_test_split');
    expect(g.value(v, OT.splitRatio)).to.equal('0.7');
    // 5 true, 5 false: round(3.5) = 4 of each trained, 1 + 1 tested
    expect(csvRows(await (await fetch(`${v}?media=text/csv`)).text())).to.have.length(2);
  });

  let model: string;
  it('external test set: figures, and the share inside the applicability domain', async () => {
    model = await run(`${app.url}/algorithm/knn`, { dataset_uri: hamster, prediction_feature: target, folds: '2' });
    const v = await run(`${app.url}/validation/test_set_validation`, { model_uri: model, test_dataset_uri: hamster });
    const g = await ttl(v);
    expect(g.value(v, OT.model)).to.equal(model);
    const rows = csvRows(await (await fetch(`${v}?media=text/csv`)).text());
    expect(rows).to.have.length(10);
    const inside = rows.filter((r) => r.in_applicability_domain === 'true').length;
    expect(Number(g.value(v, OT.shareInsideDomain))).to.be.closeTo(inside / rows.length, 1e-12);
    expect(g.value(v, OT.insideDomainStatistics)).to.be.a('string');
    // Its page: the share and the instances inside and outside, counted from the CSV.
    const page = await (await fetch(v, { headers: { Accept: 'text/html' } })).text();
    const domain = /<h2>Applicability domain<\/h2>[^]*?<\/table><\/td><\/tr><\/tbody><\/table>/.exec(page)![0];
    expect(Number(/([\d.]+) % of the predicted compounds/.exec(domain)![1])).to.be.closeTo((100 * inside) / rows.length, 0.01);
    const instances = [...domain.matchAll(/<caption>([^<]+)<\/caption><tbody><tr><th scope="row">Instances<\/th><td class="num">(\d+)<\/td>/g)].map((m) => [m[1], Number(m[2])]);
    expect(instances).to.deep.equal([['Inside the domain', inside], ['Outside the domain', rows.length - inside]]);
  });

  it('external test set with the measured values in test_target_dataset_uri', async () => {
    const smiles = readFileSync(sharedData('opentox-test', 'hamster_carcinogenicity.mini.bool_string.csv'), 'utf8').trim().split('\n').map((l) => l.split(',')[0]);
    const structures = (await uploadDataset(app, smiles.join('\n') + '\n', 'text/csv')).body;
    const v = await run(`${app.url}/validation/test_set_validation`, { model_uri: model, test_dataset_uri: structures, test_target_dataset_uri: hamster });
    const g = await ttl(v);
    expect(g.value(v, OT.testTargetDataset)).to.equal(hamster);
    expect(csvRows(await (await fetch(`${v}?media=text/csv`)).text())).to.have.length(10);
    const alone = await fetch(`${app.url}/validation/test_set_validation`, { method: 'POST', body: form({ model_uri: model, test_dataset_uri: structures }) });
    expect(alone.status).to.equal(400);
    expect(await alone.text()).to.contain('test_dataset_uri');
  });

  it('lists validations, filtered by model, algorithm and dataset, with paging', async () => {
    const all = await lines(`${app.url}/validation`);
    expect(all).to.include(first);
    expect(all.length).to.be.at.least(5);
    expect(await lines(`${app.url}/validation?pagesize=2`)).to.have.length(2);
    const listed = await ttl(`${app.url}/validation?pagesize=2`);
    expect(listed.store.getSubjects(RDF.type, OT.Crossvalidation, null).map((s) => s.value)).to.include(first);
    // The two external-set validations of `model`.
    const byModel = await lines(`${app.url}/validation?model=${encodeURIComponent(model)}`);
    expect(byModel).to.have.length(2);
    const foldModel = (await ttl(first)).value(`${first}#fold-1`, OT.model)!;
    expect(await lines(`${app.url}/validation?model=${encodeURIComponent(foldModel)}`)).to.deep.equal([first]);
    expect(await lines(`${app.url}/validation?algorithm=${encodeURIComponent(`${app.url}/algorithm/random-forest`)}`)).to.deep.equal([]);
    expect((await lines(`${app.url}/validation?dataset=${encodeURIComponent(hamster)}`)).length).to.equal(all.length - 1);
  });

  it('compares two learners on the same folds with a paired t-test', async () => {
    const forest = await run(`${app.url}/validation/crossvalidation`, cv({ algorithm_uri: `${app.url}/algorithm/logistic-regression`, num_folds: '3', random_seed: '5' }));
    const res = await fetch(`${app.url}/validation/report/algorithm_comparison`, { method: 'POST', headers: { Accept: 'application/json' }, body: form({ validation_uris: `${first} ${forest}` }) });
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^application\/json/);
    const report = await res.json() as { validations: Array<{ perFold: Record<string, number[]> }>; tests: Array<{ measure: string; n: number; p: number }> };
    // No Accept, or JSON first: the JSON report, not a page (SPEC §1 rule 5).
    expect((await fetch(`${app.url}/validation/report/algorithm_comparison`, { method: 'POST', body: form({ validation_uris: `${first} ${forest}` }) })).headers.get('content-type')).to.match(/^application\/json/);
    expect(report.validations).to.have.length(2);
    expect(report.validations[0]!.perFold.accuracy).to.have.length(3);
    expect(report.tests.map((t) => t.measure)).to.include('accuracy');
    // The same report as a page (text/html by Accept, as for every resource): per figure a
    // table of the per-fold figures and the paired test, and a line per fold across learners.
    const page = await fetch(`${app.url}/validation/report/algorithm_comparison`, { method: 'POST', headers: { Accept: 'text/html' }, body: form({ validation_uris: `${first} ${forest}` }) });
    expect(page.status).to.equal(200);
    expect(page.headers.get('content-type')).to.equal('text/html; charset=utf-8');
    const body = await page.text();
    const section = /<section><h2>accuracy<\/h2>[^]*?<\/section>/.exec(body)![0];
    const rows = [...section.matchAll(/<tr><th scope="row"><a href="([^"]+)">([^<]+)<\/a><\/th><td><a href="([^"]+)">[^<]*<\/a><\/td>((?:<td class="num">[^<]*<\/td>)+)<\/tr>/g)]
      .map((m) => ({ algorithm: m[1], label: m[2], validation: m[3], cells: [...m[4]!.matchAll(/<td class="num">([^<]*)<\/td>/g)].map((c) => Number(c[1])) }));
    expect(rows.map((r) => [r.label, r.validation])).to.deep.equal([['knn', first], ['logistic-regression', forest]]);
    const byFold = report.validations.map((v) => v.perFold.accuracy!);
    rows.forEach((r, i) => {
      // Folds 1..3, the mean of the folds, then the pooled figure.
      const folds = byFold[i]!;
      r.cells.slice(0, 3).forEach((c, f) => expect(c).to.be.closeTo(folds[f]!, 0.0051));
      expect(r.cells[3]).to.be.closeTo((folds[0]! + folds[1]! + folds[2]!) / 3, 0.0051);
    });
    // t of the paired differences, by hand: mean / (sd / √n), sd with n − 1.
    const d = byFold[0]!.map((a, f) => a - byFold[1]![f]!);
    const md = d.reduce((s, x) => s + x, 0) / 3;
    const sd = Math.sqrt(d.reduce((s, x) => s + (x - md) ** 2, 0) / 2);
    const test = /<table class="tests">[^]*?<tr><th scope="row">knn − logistic-regression<\/th><td class="num">3<\/td><td class="num">([^<]+)<\/td><td class="num">([^<]+)<\/td><td class="num">2<\/td><td class="num">([^<]+)<\/td>/.exec(section)!;
    expect(Number(test[1])).to.be.closeTo(md, 0.0051);
    if (sd > 0) expect(Number(test[2])).to.be.closeTo(md / (sd / Math.sqrt(3)), Math.abs(md / (sd / Math.sqrt(3))) * 0.01 + 0.0051);
    expect(Number(test[3])).to.be.closeTo(report.tests.find((t) => t.measure === 'accuracy')!.p, 0.0051);
    const plot = /<figure><svg class="plot"[^>]*aria-label="accuracy per fold of 2 learners[^]*?<\/svg><figcaption>/.exec(section)![0];
    expect([...plot.matchAll(/<polyline class="fold" points="([^"]+)"/g)].map((m) => m[1]!.split(' ').length)).to.deep.equal([2, 2, 2]);
    expect([...plot.matchAll(/<circle class="point"[^>]*><title>(Fold \d: [^<]+)<\/title>/g)]).to.have.length(6);
    // GET with ?media= (a browser link) gives the same page.
    const viaGet = await fetch(`${app.url}/validation/report/algorithm_comparison?validation_uris=${encodeURIComponent(first)}&validation_uris=${encodeURIComponent(forest)}&media=text/html`);
    expect(viaGet.headers.get('content-type')).to.equal('text/html; charset=utf-8');
    expect(await viaGet.text()).to.contain('<section><h2>accuracy</h2>');
    const csv = await (await fetch(`${app.url}/validation/report/algorithm_comparison?validation_uris=${encodeURIComponent(first)}&validation_uris=${encodeURIComponent(forest)}&media=text/csv`)).text();
    expect(csv.split('\r\n')[0]).to.match(/^validation,algorithm,accuracy/);
    const other = await run(`${app.url}/validation/crossvalidation`, cv({ num_folds: '3', random_seed: '6' }));
    const mismatch = await fetch(`${app.url}/validation/report/algorithm_comparison`, { method: 'POST', body: form({ validation_uris: `${first} ${other}` }) });
    expect(mismatch.status).to.equal(400);
    expect(await mismatch.text()).to.contain('other folds');
  });

  it('fold models skip the learner\'s own cross-validation; the figures are least squares worked out by hand', async () => {
    // y against one feature x: MLR on x is ordinary least squares, fitted on the other folds.
    const x = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    const y = [2.1, 3.9, 6.2, 7.8, 10.5, 11.7, 14.2, 16.1, 17.6, 21.3];
    const tiny = (await uploadDataset(app, 'SMILES,x,y\n' + x.map((v, i) => `${'C'.repeat(v)}O,${v},${y[i]}`).join('\n') + '\n', 'text/csv')).body;
    const nt = await (await fetch(tiny, { headers: { Accept: 'application/n-triples' } })).text();
    const feature = nt.split('\n').find((l) => l.includes('/1.1/title> "y"'))!.split(' ')[0]!.slice(1, -1);
    const v = await run(`${app.url}/validation/crossvalidation`, { algorithm_uri: `${app.url}/algorithm/mlr`, dataset_uri: tiny, prediction_feature: feature, num_folds: '3', random_seed: '4' });
    const g = await ttl(v);
    for (const f of [1, 2, 3]) {
      const model = await ttl(g.value(`${v}#fold-${f}`, OT.model)!);
      expect(model.store.getObjects(null, OT.crossvalidationInfo, null), `fold ${f}`).to.have.length(0);
    }
    // The same algorithm posted by a user builds a model that carries its cross-validation.
    const direct = await run(`${app.url}/algorithm/mlr`, { dataset_uri: tiny, prediction_feature: feature });
    expect((await ttl(direct)).store.getObjects(null, OT.crossvalidationInfo, null)).to.have.length(1);
    // The internal switch is no request parameter: the parameter list stays as it was.
    const sneaky = await fetch(`${app.url}/algorithm/mlr`, { method: 'POST', headers: { Accept: 'text/plain' }, body: form({ dataset_uri: tiny, prediction_feature: feature, crossvalidate: 'false' }) });
    expect(sneaky.status).to.equal(400);
    expect(await sneaky.text()).to.contain('unknown parameter crossvalidate').and.contain('folds');
    // Held-out predictions and figures against least squares by hand on the partition.
    const rows = csvRows(await (await fetch(`${v}?media=text/csv`)).text());
    expect(rows.map((r) => Number(r.actual))).to.deep.equal(y);
    const predicted = x.map((xi, i) => {
      const train = x.map((_, j) => j).filter((j) => rows[j].fold !== rows[i].fold);
      const mx = train.reduce((t, j) => t + x[j]!, 0) / train.length;
      const my = train.reduce((t, j) => t + y[j]!, 0) / train.length;
      const b = train.reduce((t, j) => t + (x[j]! - mx) * (y[j]! - my), 0) / train.reduce((t, j) => t + (x[j]! - mx) ** 2, 0);
      return my + b * (xi - mx);
    });
    rows.forEach((r, i) => expect(Number(r.predicted)).to.be.closeTo(predicted[i]!, 1e-9));
    const press = y.reduce((t, yi, i) => t + (yi - predicted[i]!) ** 2, 0);
    const mean = y.reduce((t, yi) => t + yi, 0) / y.length;
    const stats = g.value(v, OT.regressionStatistics)!;
    expect(Number(g.value(stats, OT.rootMeanSquaredError))).to.be.closeTo(Math.sqrt(press / y.length), 1e-9);
    expect(Number(g.value(stats, OT.qSquare))).to.be.closeTo(1 - press / y.reduce((t, yi) => t + (yi - mean) ** 2, 0), 1e-9);
  });

  it('a parameterised algorithm URI builds every fold model with its values', async () => {
    const def = algorithmById('random-forest')!;
    const forest = await ensureParameterised(app.deps, def, withDefaults(def.params, { trees: 3 }));
    const v = await run(`${app.url}/validation/crossvalidation`, cv({ algorithm_uri: forest, num_folds: '2' }));
    const g = await ttl(v);
    expect(g.value(v, OT.algorithm)).to.equal(forest);
    const model = await ttl(g.value(`${v}#fold-1`, OT.model)!);
    expect(model.store.getObjects(null, OT.algorithm, null).map((o) => o.value)).to.deep.equal([forest]);
  });

  it('a fold whose model cannot be built fails the task, naming the fold and the reason', async () => {
    const def = algorithmById('knn')!;
    const features = await ensureParameterised(app.deps, def, withDefaults(def.params, { representation: 'features' }));
    const res = await post(`${app.url}/validation/crossvalidation`, cv({ algorithm_uri: features, num_folds: '2' }));
    expect(res.status).to.equal(202);
    const task = (await res.text()).trim();
    expect((await followTask(task)).status).to.equal(400);
    const report = await (await fetch(task, { headers: { Accept: 'text/plain' } })).text();
    expect(report).to.match(/fold [12] of 2/).and.contain('representation=features');
  });

  it('shows progress per fold, and a cancelled validation stops and creates nothing', async () => {
    const full = (await uploadDataset(app, readFileSync(sharedData('opentox-test', 'hamster_carcinogenicity.csv'), 'utf8'), 'text/csv')).body;
    const nt = await (await fetch(full, { headers: { Accept: 'application/n-triples' } })).text();
    const line = nt.split('\n').find((l) => l.includes('#NominalFeature>') || l.includes('#NumericFeature>'))!;
    const def = algorithmById('random-forest')!;
    const slow = await ensureParameterised(app.deps, def, withDefaults(def.params, { trees: 300, folds: 10 }));
    const before = await lines(`${app.url}/validation`);
    const res = await post(`${app.url}/validation/crossvalidation`, { algorithm_uri: slow, dataset_uri: full, prediction_feature: line.slice(1, line.indexOf('>')), num_folds: '10' });
    expect(res.status).to.equal(202);
    const task = (await res.text()).trim();
    // 10 folds: each finished fold adds 8.5 points between 5 and 90.
    let seen = 0;
    for (const until = Date.now() + 240_000; Date.now() < until; await sleep(50)) {
      seen = (await app.deps.tasks.get(task))!.percentageCompleted;
      if (seen > 5) break;
    }
    expect(seen).to.be.greaterThan(5).and.lessThan(90);
    expect((await fetch(task, { method: 'DELETE' })).status).to.be.oneOf([200, 202]);
    expect((await followTask(task)).status).to.not.equal(200);
    expect((await app.deps.tasks.get(task))!.status).to.equal('Cancelled');
    await sleep(500);
    expect(await lines(`${app.url}/validation`)).to.deep.equal(before);
  });

  it('DELETE removes a validation; then 404', async () => {
    const v = await run(`${app.url}/validation/crossvalidation`, cv({ num_folds: '2' }));
    expect((await fetch(v, { method: 'DELETE' })).status).to.equal(200);
    expect((await fetch(v)).status).to.equal(404);
  });
});
