// GET /model/{id}/qmrf: QMRF 1.3 XML valid against the JRC schema (libxml2's xmllint),
// filled from the model and its validations, and a readable page.
import { expect } from 'chai';
import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { startApp, tempDir, type TestApp } from '../helpers/app.ts';
import { followTask, uploadDataset } from '../helpers/datasets.ts';
import { entries } from '../helpers/datasetEntries.ts';
import { SHARED_DATA, sharedData } from '../helpers/data.ts';
import { DESCRIPTORS } from '../../src/chem/descriptors.ts';

const SCHEMA = path.resolve(SHARED_DATA, '../reference/qmrf/qmrf-1.3.xsd');
const TO_COMPLETE = '[to be completed by the author]';

async function post(url: string, form: Record<string, string>): Promise<string> {
  const res = await fetch(url, { method: 'POST', headers: { Accept: 'text/uri-list' }, body: new URLSearchParams(form) });
  const text = (await res.text()).trim();
  const done = res.status === 202 ? await followTask(text) : { status: res.status, body: text };
  expect(done.status, done.body).to.equal(200);
  return done.body;
}

/** xmllint --schema on the text; answers its exit status and output. */
async function xmllint(xml: string): Promise<{ ok: boolean; out: string }> {
  const file = path.join(tempDir(), 'qmrf.xml');
  writeFileSync(file, xml);
  try {
    const r = await promisify(execFile)('/usr/bin/xmllint', ['--noout', '--schema', SCHEMA, file]);
    return { ok: true, out: r.stderr };
  } catch (e) {
    return { ok: false, out: String((e as { stderr?: string }).stderr ?? e) };
  }
}

async function qmrf(model: string): Promise<string> {
  const res = await fetch(`${model}/qmrf`, { headers: { Accept: 'application/xml' } });
  expect(res.status).to.equal(200);
  expect(res.headers.get('content-type')).to.equal('application/xml; charset=utf-8');
  return res.text();
}

const section = (xml: string, name: string) => new RegExp(`<${name}[ >][^]*?</${name}>`).exec(xml)?.[0] ?? '';

describe('GET /model/{id}/qmrf', function () {
  this.timeout(300_000);
  let app: TestApp;
  let training: string;
  let mlr: string;
  let external: string;
  before(async () => {
    app = await startApp();
    // A title with markup characters: the XML must escape it and stay valid.
    const e = readFileSync(sharedData('opentox-test', 'EPAFHM.csv'), 'utf8').trim().split(/\r?\n/);
    const all = (await uploadDataset(app, ['SMILES,"LC50 <mmol/l> & ""fish"""', ...e.slice(1, 111)].join('\n') + '\n', 'text/csv')).body;
    const nt = await (await fetch(all, { headers: { Accept: 'application/n-triples' } })).text();
    const line = nt.split('\n').find((l) => l.includes('#NumericFeature>'))!;
    const target = line.slice(1, line.indexOf('>'));
    // Training and test sets share the measured feature: rows 1-80 and 81-110 of one upload.
    training = (await uploadDataset(app, entries(nt, (n) => n <= 80), 'application/n-triples')).body;
    const test = (await uploadDataset(app, entries(nt, (n) => n > 80), 'application/n-triples')).body;
    mlr = await post(`${app.url}/algorithm/mlr`, { dataset_uri: training, prediction_feature: target, folds: '3' });
    external = await post(`${app.url}/validation/test_set_validation`, { model_uri: mlr, test_dataset_uri: test });
  });
  after(async () => { await app.close(); });

  it('an MLR model: valid QMRF 1.3, filled from the model and its external validation', async () => {
    const xml = await qmrf(mlr);
    const lint = await xmllint(xml);
    expect(lint.ok, lint.out).to.equal(true);
    expect(xml).to.not.match(/idref=""/);
    // Every IDREF names an ID of the document.
    const ids = new Set([...xml.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]));
    for (const m of xml.matchAll(/idref="([^"]*)"/g)) expect(ids.has(m[1]), m[1]).to.equal(true);
    expect(section(xml, 'endpoint_variable')).to.contain('LC50 &lt;mmol/l&gt; &amp; "fish"');
    expect(section(xml, 'algorithms_catalog')).to.contain('Multiple linear regression');
    expect(section(xml, 'descriptors_catalog')).to.contain('name="MW"').and.to.contain('units="g/mol"');
    expect(section(xml, 'training_set_availability')).to.contain(training);
    expect(section(xml, 'lmo')).to.contain('3-fold cross-validation computed when the model was built');
    // The compounds the model used: its cross-validation's instances, as its RDF states them.
    const used = Number(/#numInstances> "(\d+)"/.exec(await (await fetch(mlr, { headers: { Accept: 'application/n-triples' } })).text())![1]);
    expect(used).to.be.within(60, 80);
    expect(section(xml, 'descriptors_chemicals_ratio')).to.contain(`${used} chemicals / ${DESCRIPTORS.length} descriptors = ${(used / DESCRIPTORS.length).toFixed(2)}`);
    // The external validation's R², as the validation resource states it.
    const v = await (await fetch(external, { headers: { Accept: 'application/n-triples' } })).text();
    const r2 = Number(/#rSquare> "([^"]+)"/.exec(v)![1]);
    const predictivity = section(xml, 'validation_predictivity');
    expect(predictivity).to.contain(external);
    expect(predictivity).to.contain(`R² ${Number(r2.toPrecision(4))}`);
    expect(section(xml, 'validation_set_availability')).to.contain('answer="Yes"');
    // The equation carries the fitted intercept and coefficients.
    expect(section(xml, 'equation')).to.match(/= -?[\d.e+-]+ \+ -?[\d.e+-]+ × \[MW \(Molecular weight, RDKit\)\]/);
    // What only the author knows is marked.
    expect(section(xml, 'model_species')).to.contain(TO_COMPLETE);
    expect(section(xml, 'QMRF_number')).to.contain(TO_COMPLETE);
  });

  it('a kNN classification model on fingerprints validates too, with its own domain', async () => {
    const k = readFileSync(sharedData('opentox-test', 'kazius.csv'), 'utf8').trim().split(/\r?\n/);
    const kazius = (await uploadDataset(app, [k[0], ...k.slice(1, 31), ...k.slice(-30)].join('\n') + '\n', 'text/csv')).body;
    const nt = await (await fetch(kazius, { headers: { Accept: 'application/n-triples' } })).text();
    const line = nt.split('\n').find((l) => l.includes('/feature/') && l.includes('"Mutagenicity"'))!;
    const model = await post(`${app.url}/algorithm/knn`, { dataset_uri: kazius, prediction_feature: line.slice(1, line.indexOf('>')), bits: '256', min_similarity: '0.25', folds: '2' });
    const xml = await qmrf(model);
    const lint = await xmllint(xml);
    expect(lint.ok, lint.out).to.equal(true);
    expect(section(xml, 'applicability_limits')).to.contain('≥ 0.25');
    expect(section(xml, 'descriptors_catalog')).to.contain('Morgan fingerprint (radius 2, 256 bits)');
    expect(section(xml, 'validation_set_availability')).to.contain('answer="No"');
    expect(section(xml, 'publications_catalog')).to.contain('Nearest neighbor pattern classification');
  });

  it('text/html: a page with the chapters, the placeholders marked, and the values escaped', async () => {
    const res = await fetch(`${mlr}/qmrf`, { headers: { Accept: 'text/html' } });
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.contain('text/html');
    const page = await res.text();
    expect(page).to.contain('<h3>6.9 Robustness - Statistics obtained by leave-many-out cross-validation</h3>');
    expect(page).to.contain(`<mark>${TO_COMPLETE}</mark>`);
    expect(page).to.contain('LC50 &lt;mmol/l&gt; &amp; &quot;fish&quot;');
    expect(page).to.not.contain('<mmol/l>');
  });

  it('the model page has a button that downloads it', async () => {
    const page = await (await fetch(mlr, { headers: { Accept: 'text/html' } })).text();
    const link = /<a href="([^"]+)" download="qmrf.xml" role="button"/.exec(page);
    expect(link, 'download link').to.not.equal(null);
    const res = await fetch(link![1]!.replace(/&amp;/g, '&'));
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.contain('application/xml');
    expect(await res.text()).to.contain('<QMRF ');
  });

  it('an unknown model answers 404', async () => {
    const res = await fetch(`${app.url}/model/999999/qmrf`, { headers: { Accept: 'application/xml' } });
    expect(res.status).to.equal(404);
  });
});
