// The pages a browser gets (text/html): what each shows, checked against values worked out
// by hand or known for the structures (InChIKey of ethanol), never against our own output.
import { readFileSync } from 'node:fs';
import { expect } from 'chai';
import { startApp, type TestApp } from '../helpers/app.ts';
import { followTask, lines, uploadDataset } from '../helpers/datasets.ts';
import { sharedData } from '../helpers/data.ts';
import { createModel } from '../../src/models/models.ts';
import type { Predictor } from '../../src/models/predictors.ts';
import { ensureFeature } from '../../src/features/features.ts';

const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

// The mean of the training values: a learner whose predictions are known by hand.
const predictor: Predictor = async ({ data, dataset }) => ({
  values: dataset.compounds.map(() => [(data as { mean: number }).mean]),
});

async function page(url: string, status = 200): Promise<string> {
  const res = await fetch(url, { headers: { Accept: BROWSER } });
  const body = await res.text();
  expect(res.status, body.slice(0, 500)).to.equal(status);
  expect(res.headers.get('content-type')).to.equal('text/html; charset=utf-8');
  expect(body).to.match(/^<!DOCTYPE html>/);
  return body;
}

const all = (text: string, re: RegExp): string[][] => [...text.matchAll(re)].map((m) => m.slice(1));

/** The SVG plot whose accessible name starts with `label`. */
const svgOf = (body: string, label: string): string => {
  const found = new RegExp(`<svg class="plot"[^>]*aria-label="${label}[^]*?</svg>`).exec(body);
  expect(found, `a plot "${label}"`).to.not.equal(null);
  return found![0];
};

describe('pages (text/html)', function () {
  this.timeout(300_000);
  let app: TestApp;
  let dataset: string;
  before(async () => {
    app = await startApp();
    app.deps.predictors.set('pages-test-mean', predictor);
    // logS 1,2,3,3,3: Sturges gives ceil(log2 5 + 1) = 4 bins of width 0.5 over [1,3],
    // holding 1,0,1,3; active: yes 3, no 2.
    const csv = 'SMILES,logS,active\nCCO,1,yes\nCCCO,2,no\nc1ccccc1O,3,yes\nCCCCO,3,yes\nCC(C)O,3,no\n';
    dataset = (await uploadDataset(app, csv, 'text/csv')).body;
  });
  after(async () => { await app.close(); });

  it('root links every collection', async () => {
    const body = await page(app.url + '/');
    for (const c of ['/algorithm', '/compound', '/dataset', '/feature', '/model', '/task', '/ontology', '/sparql']) expect(body).to.contain(`href="${app.url}${c}"`);
  });

  it('a dataset page: depictions, a histogram per numeric feature, counts per nominal one', async () => {
    const body = await page(dataset);
    expect(all(body, /<tr><td><span class="depiction" role="img" aria-label="structure ([^"]+)">\s*<svg/g).map((m) => m[0]!)).to.deep.equal(['CCO', 'CCCO', 'Oc1ccccc1', 'CCCCO', 'CC(C)O']);
    const bars = all(body, /<rect class="bar"[^>]*><title>([^<]*)<\/title>/g).map((m) => m[0]!);
    expect(bars.filter((t) => !/^(yes|no):/.test(t)).map((t) => Number(t.split(': ')[1]!))).to.deep.equal([1, 0, 1, 3]);
    expect(bars.filter((t) => /^(yes|no):/.test(t))).to.deep.equal(['yes: 3', 'no: 2']);
    for (const t of ['text/csv', 'chemical/x-mdl-sdfile', 'text/turtle']) expect(body).to.contain(`media=${encodeURIComponent(t)}`);
  });

  it('a dataset page sorts by a feature and pages with page/pagesize', async () => {
    const body = await page(dataset);
    const href = /<a class="sort" href="([^"]+)" title="sort by logS">/.exec(body)![1]!.replace(/&amp;/g, '&');
    const asc = await page(href);
    const values = (html: string) => all(html, /<td class="num">([^<]*)<\/td>/g).map((m) => m[0]!);
    expect(values(asc)).to.deep.equal(['1', '2', '3', '3', '3']);
    const descHref = /<a class="sort" href="([^"]+)" title="sort by logS">/.exec(asc)![1]!.replace(/&amp;/g, '&');
    expect(descHref).to.contain('order=desc');
    expect(values(await page(descHref))).to.deep.equal(['3', '3', '3', '2', '1']);
    const first = await page(dataset + '?pagesize=2');
    expect(all(first, /aria-label="structure ([^"]+)"/g).map((m) => m[0]!)).to.deep.equal(['CCO', 'CCCO']);
    const next = /<a rel="next" href="([^"]+)"/.exec(first)![1]!.replace(/&amp;/g, '&');
    expect(all(await page(next), /aria-label="structure ([^"]+)"/g).map((m) => m[0]!)).to.deep.equal(['Oc1ccccc1', 'CCCCO']);
    expect(await page(dataset + '?sort=7', 400)).to.contain('sort=');
  });

  it('a compound page: depiction, identifiers, formats, datasets, similar compounds', async () => {
    const body = await page(app.url + '/compound/1');
    expect(body).to.contain('<svg').and.contain('LFQSCWFLJHTTHZ-UHFFFAOYSA-N').and.contain('C2H6O').and.contain('InChI=1S/C2H6O/c1-2-3/h3H,2H2,1H3');
    expect(body).to.match(/46\.0[67]\d g\/mol/);
    expect(body).to.contain(`<li><a href="${dataset}">`);
    for (const t of ['chemical/x-mdl-molfile', 'chemical/x-daylight-smiles', 'image/png', 'chemical/x-cml']) expect(body).to.contain(`media=${encodeURIComponent(t)}`);
    // 1-propanol is the nearest of the others to ethanol (Morgan r=2).
    expect(body).to.match(new RegExp(`class="similar">.*href="${app.url}/compound/2"`, 's'));
  });

  it('search: the form finds compounds by substructure and similarity, with depictions', async () => {
    const sub = await page(`${app.url}/compound?q=${encodeURIComponent('c1ccccc1')}&mode=substructure`);
    expect(all(sub, /<td><a href="([^"]+)">/g).map((m) => m[0]!)).to.deep.equal([`${app.url}/compound/3`]);
    expect(sub).to.contain('<svg');
    const smarts = await page(`${app.url}/compound?q=${encodeURIComponent('[CH2][OH]')}&mode=smarts`);
    expect(all(smarts, /<td><a href="([^"]+)">/g).map((m) => m[0]!).sort()).to.deep.equal([1, 2, 4].map((n) => `${app.url}/compound/${n}`));
    const similar = await page(`${app.url}/compound?q=CCO&mode=similarity&threshold=1`);
    expect(similar).to.contain('Tanimoto similarity &gt;= 1 to CCO');
    expect(all(similar, /<td class="num">([^<]*)<\/td>/g).map((m) => m[0]!)).to.deep.equal(['1.0000']);
    // Within a dataset: the dataset's page restricted to the hits.
    const within = await page(`${dataset}?substructure=${encodeURIComponent('c1ccccc1')}`);
    expect(all(within, /aria-label="structure ([^"]+)"/g).map((m) => m[0]!)).to.deep.equal(['Oc1ccccc1']);
    const none = await page(`${dataset}?substructure=${encodeURIComponent('C#N')}`);
    expect(none).to.contain('No compound matches.');
    const rest = await page(`${app.url}/compound?search=CCCO`);
    expect(all(rest, /<td><a href="([^"]+)">/g).map((m) => m[0]!)).to.deep.equal([`${app.url}/compound/2`]);
  });

  it('search hits show depiction, SMILES, the name a dataset gives and the similarity', async () => {
    await uploadDataset(app, 'SMILES,Chemical name,bp\nCCO,ethanol,78\nCCCO,propan-1-ol,97\n', 'text/csv');
    const similar = await page(`${app.url}/compound?q=CCO&mode=similarity&threshold=0.3`);
    const rows = all(similar, /<tr><td><span class="depiction"[^]*?<\/span><\/td><td><a href="([^"]+)">[^]*?<td class="smiles">([^<]*)<\/td><td class="name">([^<]*)<\/td><td class="num">([^<]*)<\/td><\/tr>/g);
    // Ethanol is itself (1), 1-propanol the nearest (Morgan r=2, checked on the compound page).
    expect(rows[0]).to.deep.equal([`${app.url}/compound/1`, 'CCO', 'ethanol', '1.0000']);
    expect(rows[1]!.slice(0, 3)).to.deep.equal([`${app.url}/compound/2`, 'CCC' + 'O', 'propan-1-ol']);
    expect(Number(rows[1]![3])).to.be.within(0.3, 0.99);
    // A compound no dataset names has an empty name.
    const phenol = await page(`${app.url}/compound?q=${encodeURIComponent('c1ccccc1')}&mode=substructure`);
    expect(phenol).to.match(/<td class="smiles">Oc1ccccc1<\/td><td class="name"><\/td>/);
  });

  it('a dataset page: its title not its URI, units beside feature titles, page numbers', async () => {
    const untitled = await page(dataset);
    const shown = /<title>([^<]*)<\/title>/.exec(untitled)![1];
    expect(shown).to.not.contain(app.url);
    expect(shown).to.contain(`Dataset ${dataset.split('/').pop()}`);
    const form = new FormData();
    form.set('title', 'Solubility set');
    form.set('file', new Blob(['SMILES,logS\nCCO,1\n'], { type: 'text/csv' }), 'sol.csv');
    const titled = (await (await fetch(`${app.url}/dataset`, { method: 'POST', headers: { Accept: 'text/uri-list' }, body: form })).text()).trim();
    expect(/<title>([^<]*)<\/title>/.exec(await page(titled))![1]).to.contain('Solubility set');
    // Units come with the features of an RDF upload (ot:units).
    const ttl = `@prefix ot: <http://www.opentox.org/api/1.1#> . @prefix dc: <http://purl.org/dc/elements/1.1/> .
<http://x.example/d> a ot:Dataset ; ot:dataEntry [ a ot:DataEntry ; ot:compound <${app.url}/compound/1> ; ot:values [ a ot:FeatureValue ; ot:feature <http://x.example/f> ; ot:value 12.5 ] ] .
<http://x.example/f> a ot:Feature, ot:NumericFeature ; dc:title "LC50" ; ot:units "mg/L" .`;
    const withUnits = (await uploadDataset(app, ttl, 'text/turtle')).body;
    expect(await page(withUnits)).to.match(/title="sort by LC50">LC50<\/a> <span class="units">\(mg\/L\)<\/span>/);
    // 5 entries at 2 a page: pages 1-3, the second current.
    const second = await page(dataset + '?pagesize=2&page=1');
    expect(second).to.contain('Page 2 of 3');
    expect(all(second, /<a class="page" href="[^"]*page=(\d+)[^"]*">(\d+)<\/a>/g)).to.deep.equal([['0', '1'], ['2', '3']]);
    expect(second).to.match(/<span class="page" aria-current="page">2<\/span>/);
  });

  it('lists page with page/pagesize links', async () => {
    const body = await page(app.url + '/compound?pagesize=2');
    expect(all(body, /<li><span class="depiction"[^]*?<a href="([^"]+)">/g).length).to.equal(2);
    expect(body).to.contain(`rel="next" href="${app.url}/compound?pagesize=2&amp;page=1"`);
  });

  it('the dataset list has the upload form', async () => {
    const body = await page(app.url + '/dataset');
    expect(body).to.contain(`action="${app.url}/dataset"`).and.contain('type="file"').and.contain(`<a href="${dataset}">`);
  });

  it('an algorithm page: description, parameters with defaults and ranges, an apply form', async () => {
    const body = await page(app.url + '/algorithm/knn');
    expect(body).to.contain('name="prediction_feature"').and.contain('name="dataset_uri"').and.contain('<code>k</code>');
    expect(body).to.contain('an integer in [1,1000]');
    expect(body).to.contain(`action="${app.url}/algorithm/knn"`);
    const unsupervised = await page(app.url + '/algorithm/physchem');
    expect(unsupervised).to.not.contain('name="prediction_feature"');
  });

  it('a regression model page without held-out predictions draws no fitted values', async () => {
    const training = (await uploadDataset(app, 'SMILES,logS\nCCO,1\nCCCO,2\nCCCCO,3\n', 'text/csv')).body;
    const target = (await lines(training + '/features'))[0]!;
    const predicted = await ensureFeature(app.deps, { title: 'logS (mean)', type: 'numeric', source: app.url + '/algorithm/mean' });
    const model = await createModel(app.deps, {
      title: 'mean of logS', creator: 'test', algorithm: app.url + '/algorithm/mean', trainingDataset: training,
      independentVariables: [], dependentVariables: [target], predictedVariables: [predicted],
      parameters: [], kind: 'pages-test-mean', data: { mean: 2 },
    });
    const body = await page(model);
    // Fitted training values flatter a model: only held-out predictions are plotted.
    expect(body).to.not.contain('<circle class="point"');
    expect(body).to.contain('This model keeps no held-out predictions to plot');
    expect(body).to.contain(`<a href="${training}">`).and.contain('name="smiles"');
  });

  it('a classification model page: cross-validated confusion matrix and ROC curve', async () => {
    const hamster = (await uploadDataset(app, readFileSync(sharedData('opentox-test', 'hamster_carcinogenicity.mini.csv')), 'text/csv')).body;
    const target = (await lines(hamster + '/features'))[0]!;
    const res = await fetch(app.url + '/algorithm/knn', { method: 'POST', headers: { Accept: 'text/uri-list' }, body: new URLSearchParams({ dataset_uri: hamster, prediction_feature: target, k: '3', folds: '2', seed: '9' }) });
    const built = res.status === 202 ? await followTask((await res.text()).trim()) : { status: res.status, body: (await res.text()).trim() };
    expect(built.status, built.body).to.equal(200);
    const body = await page(built.body);
    const matrix = /<table class="confusion">[^]*?<\/table>/.exec(body)![0];
    const rows = all(matrix, /<tr><th scope="row">([^<]*)<\/th>((?:<td class="num">\d+<\/td>)+)<\/tr>/g)
      .map(([label, cells]) => [label, ...all(cells!, /(\d+)/g).map((m) => Number(m[0]))] as [string, ...number[]]);
    // Row sums are the class counts of the file: hand-counted from its second column.
    const file = readFileSync(sharedData('opentox-test', 'hamster_carcinogenicity.mini.csv'), 'utf8').trim().split('\n').slice(1).map((l) => l.split(',').pop()!.trim());
    for (const [label, ...counts] of rows) expect(counts.reduce((s, v) => s + v, 0), label).to.equal(file.filter((v) => v === label).length);
    // The ROC curve of the held-out scores, every compound of the file held out once.
    expect(body).to.contain('<polyline class="roc"').and.contain(`held-out scores for class ${rows[1]![0]} (${file.length} compounds)`);
  });

  async function validate(fields: Record<string, string>): Promise<string> {
    const res = await fetch(app.url + '/validation/crossvalidation', { method: 'POST', headers: { Accept: 'text/uri-list' }, body: new URLSearchParams(fields) });
    const text = (await res.text()).trim();
    const done = res.status === 202 ? await followTask(text) : { status: res.status, body: text };
    expect(done.status, done.body).to.equal(200);
    return done.body;
  }

  it('a classification validation page: ROC curve of the held-out scores, whose area is the stored AUC', async () => {
    const hamster = (await uploadDataset(app, readFileSync(sharedData('opentox-test', 'hamster_carcinogenicity.csv')), 'text/csv')).body;
    const target = (await lines(hamster + '/features'))[0]!;
    const validation = await validate({ algorithm_uri: app.url + '/algorithm/random-forest', dataset_uri: hamster, prediction_feature: target, num_folds: '3', random_seed: '2' });
    const body = await page(validation);
    const svg = /<svg class="plot"[^]*?<\/svg>/.exec(body)![0];
    const [x0, y0, w, h] = /<rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)"/.exec(svg)!.slice(1).map(Number) as [number, number, number, number];
    const points = /<polyline class="roc" points="([^"]+)"/.exec(svg)![1]!.split(' ').map((p) => p.split(',').map(Number)).map(([x, y]): [number, number] => [(x! - x0) / w, (y0 + h - y!) / h]);
    expect(points[0]).to.deep.equal([0, 0]);
    expect(points[points.length - 1]).to.deep.equal([1, 1]);
    // Trapezoids under the drawn curve against the AUC the service computed by rank sums.
    const area = points.slice(1).reduce((s, [x, y], i) => s + (x - points[i]![0]) * (y + points[i]![1]) / 2, 0);
    const nt = await (await fetch(validation, { headers: { Accept: 'application/n-triples' } })).text();
    const auc = Number(/<[^>]*#statistics> <http:\/\/www\.opentox\.org\/api\/1\.1#areaUnderRoc> "([^"]+)"/.exec(nt)![1]);
    expect(area).to.be.closeTo(auc, 1e-9);
    expect(body).to.contain('<table class="confusion">').and.contain('Fold 3');
    // Per-fold spread: a dot per fold for balanced accuracy, MCC and AUC, each the fold's stored figure.
    const spread = svgOf(body, 'balanced accuracy, MCC, AUC per fold');
    const dots = all(spread, /<circle class="point"[^>]*><title>Fold (\d): ([^<]+) ([-\d.e]+)<\/title>/g);
    expect(dots.map(([f, label]) => `${label} ${f}`)).to.deep.equal(['balanced accuracy 1', 'balanced accuracy 2', 'balanced accuracy 3', 'MCC 1', 'MCC 2', 'MCC 3', 'AUC 1', 'AUC 2', 'AUC 3']);
    for (const [f, label, v] of dots) {
      const term = { 'balanced accuracy': 'balancedAccuracy', MCC: 'matthewsCorrelationCoefficient', AUC: 'areaUnderRoc' }[label!]!;
      const stored = Number(new RegExp(`#fold-${f}-statistics> <http://www\\.opentox\\.org/api/1\\.1#${term}> "([^"]+)"`).exec(nt)![1]);
      expect(Number(v)).to.be.closeTo(stored, 0.005);
    }
    expect(all(spread, /<line class="pooled"/g)).to.have.length(3);
    expect(await page(app.url + '/validation')).to.contain(`<a href="${validation}">`);
    // A model of the same algorithm on the same data shows that cross-validation's curve.
    const res = await fetch(app.url + '/algorithm/random-forest', { method: 'POST', headers: { Accept: 'text/uri-list' }, body: new URLSearchParams({ dataset_uri: hamster, prediction_feature: target }) });
    const model = res.status === 202 ? (await followTask((await res.text()).trim())).body : (await res.text()).trim();
    const modelPage = await page(model);
    expect(modelPage).to.contain(`From <a href="${validation}">`);
    expect(/<polyline class="roc" points="([^"]+)"/.exec(modelPage)![1]).to.equal(/<polyline class="roc" points="([^"]+)"/.exec(svg)![1]);
  });

  it('a regression validation page: observed vs predicted for every held-out compound', async () => {
    const epa = (await uploadDataset(app, readFileSync(sharedData('opentox-test', 'EPAFHM.mini.csv')), 'text/csv')).body;
    const target = (await lines(epa + '/features'))[0]!;
    const validation = await validate({ algorithm_uri: app.url + '/algorithm/random-forest', dataset_uri: epa, prediction_feature: target, num_folds: '3', trees: '10' });
    const body = await page(validation);
    const csv = (await lines(validation, 'text/csv')).slice(1).filter((l) => { const c = l.split(','); return c[2] !== '' && c[3] !== ''; });
    expect(all(svgOf(body, 'Observed vs predicted'), /<circle class="point"/g)).to.have.length(csv.length).and.to.have.length.at.least(10);
    expect(all(svgOf(body, 'Residuals of'), /<circle class="point"/g)).to.have.length(csv.length);
    expect(body).to.contain('Q²');
  });

  it('a regression validation page: residuals and per-fold RMSE where least squares is worked out by hand', async () => {
    // y against one feature x: MLR on x is ordinary least squares, a = ȳ − b·x̄ and
    // b = Σ(x−x̄)(y−ȳ)/Σ(x−x̄)², fitted here on the other folds' rows.
    const x = [1, 2, 3, 4, 5, 6, 7, 8, 9];
    const y = [2.1, 3.9, 6.2, 7.8, 10.5, 11.7, 14.2, 16.1, 17.6];
    const smiles = x.map((n) => 'C'.repeat(n) + 'O');
    const tiny = (await uploadDataset(app, 'SMILES,x,y\n' + x.map((v, i) => `${smiles[i]},${v},${y[i]}`).join('\n') + '\n', 'text/csv')).body;
    const features = await lines(tiny + '/features');
    const titles = await Promise.all(features.map(async (f) => /<http:\/\/purl\.org\/dc\/elements\/1\.1\/title> "([^"]+)"/.exec(await (await fetch(f, { headers: { Accept: 'application/n-triples' } })).text())?.[1]));
    const validation = await validate({ algorithm_uri: app.url + '/algorithm/mlr', dataset_uri: tiny, prediction_feature: features[titles.indexOf('y')]!, num_folds: '3', random_seed: '3' });
    // The partition (not a result) from the CSV; rows in dataset order, each y once.
    const rows = (await lines(validation, 'text/csv')).slice(1).map((l) => l.split(','));
    expect(rows.map((r) => Number(r[2]))).to.deep.equal(y);
    const fold = rows.map((r) => Number(r[1]));
    const predicted = x.map((xi, i) => {
      const train = x.map((_, j) => j).filter((j) => fold[j] !== fold[i]);
      const mx = train.reduce((s, j) => s + x[j]!, 0) / train.length;
      const my = train.reduce((s, j) => s + y[j]!, 0) / train.length;
      const b = train.reduce((s, j) => s + (x[j]! - mx) * (y[j]! - my), 0) / train.reduce((s, j) => s + (x[j]! - mx) ** 2, 0);
      return my - b * mx + b * xi;
    });
    const residual = y.map((v, i) => v - predicted[i]!);
    const body = await page(validation);
    const svg = svgOf(body, 'Residuals of');
    const [x0, y0, w, h] = /<rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)"/.exec(svg)!.slice(1).map(Number) as [number, number, number, number];
    const points = all(svg, /<circle class="point" cx="([^"]+)" cy="([^"]+)"[^>]*><title>([^<]+): predicted /g);
    expect(points).to.have.length(9);
    const lo = Math.min(...predicted);
    const hi = Math.max(...predicted);
    const m = Math.max(...residual.map(Math.abs));
    for (const [cx, cy, compound] of points) {
      const i = rows.findIndex((r) => r[0] === compound);
      expect(Number(cx), compound).to.be.closeTo(x0 + ((predicted[i]! - lo) / (hi - lo)) * w, 1e-6);
      expect(Number(cy), compound).to.be.closeTo(y0 + h - ((residual[i]! + m) / (2 * m)) * h, 1e-6);
    }
    expect(Number(/<line class="zero" x1="[^"]+" y1="([^"]+)"/.exec(svg)![1])).to.be.closeTo(y0 + h / 2, 1e-9);
    // RMSE per fold and pooled, from the hand residuals: a dot per fold, the pooled bar.
    const rmse = (idx: number[]) => Math.sqrt(idx.reduce((s, i) => s + residual[i]! ** 2, 0) / idx.length);
    const perFold = [1, 2, 3].map((f) => rmse(x.map((_, i) => i).filter((i) => fold[i] === f)));
    const pooled = rmse(x.map((_, i) => i));
    const spread = svgOf(body, 'RMSE per fold');
    const [, sy0, , sh] = /<rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)"/.exec(spread)!.slice(1).map(Number) as [number, number, number, number];
    const [rlo, rhi] = [Math.min(...perFold, pooled), Math.max(...perFold, pooled)];
    const at = (v: number) => sy0 + sh - ((v - rlo) / (rhi - rlo)) * sh;
    expect(all(spread, /<circle class="point" cx="[^"]+" cy="([^"]+)"/g).map(([cy]) => Number(cy))).to.have.length(3).and.satisfy((cys: number[]) => cys.every((cy, f) => Math.abs(cy - at(perFold[f]!)) < 1e-6));
    expect(Number(/<line class="pooled" x1="[^"]+" y1="([^"]+)"/.exec(spread)![1])).to.be.closeTo(at(pooled), 1e-6);
    expect(body).to.match(/<figure><svg class="plot"[^>]*aria-label="Residuals of[^]*?<\/svg><figcaption>/);
  });

  it('a task page: status, result link, and the script that follows a running task', async () => {
    // Larger than the inline upload limit (64 KiB): the upload runs as a task (SPEC §4.3).
    const res = await fetch(app.url + '/dataset', { method: 'POST', headers: { 'Content-Type': 'chemical/x-mdl-sdfile', Accept: 'text/uri-list' }, body: readFileSync(sharedData('opentox-test', 'hamster_carcinogenicity.sdf')) });
    expect(res.status).to.equal(202);
    const task = (await res.text()).trim();
    const running = await fetch(task, { headers: { Accept: BROWSER } });
    const early = await running.text();
    if (running.status === 202) expect(early).to.contain(`data-follow="${task}"`).and.contain('<script>');
    const done = await followTask(task);
    expect(done.status).to.equal(200);
    const body = await page(task);
    expect(body).to.contain('Completed').and.contain(`<a class="result-link" href="${done.body}">`).and.not.contain('data-follow');
  });

  it('a failed task shows its error report', async () => {
    // One class only: the learner refuses it while the task runs, so the task ends in Error.
    const one = (await uploadDataset(app, 'SMILES,y\nCCO,a\nCCCO,a\nCCCCO,a\n', 'text/csv')).body;
    const target = (await lines(one + '/features'))[0]!;
    const res = await fetch(app.url + '/algorithm/knn', { method: 'POST', headers: { Accept: 'text/uri-list' }, body: new URLSearchParams({ dataset_uri: one, prediction_feature: target }) });
    expect(res.status).to.equal(202);
    const task = (await res.text()).trim();
    const done = await followTask(task);
    expect(done.status).to.be.at.least(400);
    const body = await page(task, done.status);
    expect(body).to.contain('<h1>Task Error</h1>').and.match(/<span class="message">[^<]*single class[^<]*<\/span>/);
  });

  it('a form posted without script gets a page that follows its task', async () => {
    const form = new FormData();
    form.append('file', new Blob([readFileSync(sharedData('opentox-test', 'hamster_carcinogenicity.sdf'))]), 'hamster.sdf');
    const res = await fetch(app.url + '/dataset', { method: 'POST', headers: { Accept: BROWSER }, body: form });
    const body = await res.text();
    expect(res.status).to.equal(202);
    expect(res.headers.get('content-type')).to.equal('text/html; charset=utf-8');
    const task = /data-follow="([^"]+)"/.exec(body)![1]!;
    expect(task).to.equal(res.headers.get('location'));
    expect((await followTask(task)).status).to.equal(200);
  });

  it('errors are HTML pages for browsers with the report\'s message, plain text for programs', async () => {
    const body = await page(app.url + '/dataset/999', 404);
    expect(body).to.match(/<span class="message">dataset [^<]*\/dataset\/999 not found<\/span>/);
    const plain = await fetch(app.url + '/dataset/999', { headers: { Accept: 'text/plain' } });
    expect(plain.headers.get('content-type')).to.match(/^text\/plain/);
  });

  it('data from the store is escaped, never markup', async () => {
    const form = new FormData();
    form.append('title', '<script>alert(1)</script>');
    form.append('file', new Blob(['SMILES,x\nCCS,1\n'], { type: 'text/csv' }), 'x.csv');
    const res = await fetch(app.url + '/dataset', { method: 'POST', headers: { Accept: 'text/uri-list' }, body: form });
    const text = (await res.text()).trim();
    const uri = res.status === 202 ? (await followTask(text)).body : text;
    const body = await page(uri);
    expect(body).to.contain('&lt;script&gt;alert(1)&lt;/script&gt;').and.not.contain('<script>alert(1)');
  });
});
