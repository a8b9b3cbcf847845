// The model page plots the predicted variable as cross-validated (never the fitted
// training values), and says plainly when the model is no better than the mean or chance.
import { expect } from 'chai';
import { startApp, type TestApp } from '../helpers/app.ts';
import { followTask, uploadDataset } from '../helpers/datasets.ts';

async function apply(url: string, f: Record<string, string>): Promise<{ status: number; body: string }> {
  const res = await fetch(url, { method: 'POST', headers: { Accept: 'text/uri-list' }, body: new URLSearchParams(f) });
  const text = (await res.text()).trim();
  return res.status === 202 ? followTask(text) : { status: res.status, body: text };
}
const nt = async (url: string) => (await fetch(url, { headers: { Accept: 'application/n-triples' } })).text();
async function upload(app: TestApp, csv: string, column: string): Promise<{ dataset: string; target: string }> {
  const dataset = (await uploadDataset(app, csv, 'text/csv')).body;
  const line = (await nt(dataset)).split('\n').find((l) => l.includes(`/title> "${column}"`) && l.includes('/feature/'))!;
  return { dataset, target: line.slice(1, line.indexOf('>')) };
}
async function page(url: string): Promise<string> {
  const res = await fetch(url, { headers: { Accept: 'text/html' } });
  expect(res.status).to.equal(200);
  expect(res.headers.get('content-type')).to.match(/^text\/html/);
  return res.text();
}
const stat = (triples: string, term: string) => Number(JSON.parse(triples.split('\n').find((l) => l.includes(`#${term}> `))!.split('> ')[2]!.split('^^')[0]!));

const BP = 'SMILES,bp\nCCO,78.4\nCCCO,97.2\nCCCCO,117.7\nCC(C)O,82.5\nCCCCCO,138.5\nCCN,16.6\nCCCN,48.5\nCCCCN,77.3\nCCCCCN,104.4\nCC(C)N,32.4\n';
// Each alcohol's nearest neighbours carry the other class: k=1 read-across is always wrong.
const ALTERNATING = 'SMILES,Active\nCO,yes\nCCO,no\nCCCO,yes\nCCCCO,no\nCCCCCO,yes\nCCCCCCO,no\nCCCCCCCO,yes\nCCCCCCCCO,no\n';

describe('the model page plots the predicted variable, held out, and warns of a useless model', function () {
  this.timeout(300_000);
  let app: TestApp;
  before(async () => { app = await startApp(); });
  after(async () => { await app.close(); });

  it('kNN regression: observed vs cross-validated predicted of the endpoint, one dot per held-out compound, figures rounded', async () => {
    const { dataset, target } = await upload(app, BP, 'bp');
    const model = (await apply(`${app.url}/algorithm/knn`, { dataset_uri: dataset, prediction_feature: target, folds: '5', k: '2' })).body;
    const html = await page(model);
    const n = stat(await nt(model), 'numInstances');
    expect(html).to.contain(`Observed vs predicted bp (${n} compounds)`).and.contain('Held-out predictions');
    expect(html).to.not.contain('neighbours (');
    expect(html).to.not.match(/<td class="num">-?\d+\.\d{4,}<\/td>/);
  });

  it('a regression with Q² < 0 says it predicts worse than the mean', async () => {
    // Values alternating along a homologous series: each compound's nearest neighbour has the other value.
    const { dataset, target } = await upload(app, 'SMILES,y\n' + ['CO', 'CCO', 'CCCO', 'CCCCO', 'CCCCCO', 'CCCCCCO', 'CCCCCCCO', 'CCCCCCCCO'].map((s, i) => `${s},${i % 2 ? 0.5 : 100.5}`).join('\n') + '\n', 'y');
    const model = (await apply(`${app.url}/algorithm/knn`, { dataset_uri: dataset, prediction_feature: target, folds: '4', k: '1' })).body;
    const q2 = stat(await nt(model), 'rSquare');
    expect(q2).to.be.lessThan(0);
    const html = await page(model);
    expect(html).to.contain('This model predicts worse than the mean.').and.contain('below 0');
  });

  it('a classifier at chance level says so; its page shows the ROC curve and the confusion matrix', async () => {
    const { dataset, target } = await upload(app, ALTERNATING, 'Active');
    const model = (await apply(`${app.url}/algorithm/knn`, { dataset_uri: dataset, prediction_feature: target, folds: '4', k: '1' })).body;
    const triples = await nt(model);
    expect(stat(triples, 'balancedAccuracy')).to.be.at.most(0.5);
    const html = await page(model);
    expect(html).to.contain('This model predicts no better than chance.');
    expect(html).to.contain('<table class="confusion">').and.contain('ROC curve of the held-out scores');
  });

  it('a useful classifier shows no such warning', async () => {
    const csv = 'SMILES,Class\n' + ['CCO', 'CCCO', 'CCCCO', 'CC(C)O', 'CCCCCO', 'OCCO'].map((s) => `${s},alcohol`).join('\n') + '\n' + ['CCN', 'CCCN', 'CCCCN', 'CC(C)N', 'CCCCCN', 'NCCN'].map((s) => `${s},amine`).join('\n') + '\n';
    const { dataset, target } = await upload(app, csv, 'Class');
    const model = (await apply(`${app.url}/algorithm/knn`, { dataset_uri: dataset, prediction_feature: target, folds: '3', k: '1' })).body;
    expect(stat(await nt(model), 'balancedAccuracy')).to.be.greaterThan(0.5);
    const html = await page(model);
    expect(html).to.not.contain('no better than chance');
    expect(html).to.contain('<table class="confusion">');
  });
});
