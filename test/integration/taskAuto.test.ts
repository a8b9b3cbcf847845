// task=auto over HTTP: an endpoint of a few integer codes trains classes (scikit-learn's
// type_of_target rule, judged in test/unit/algorithms/taskChoice.test.ts); the model states
// which task it chose and why, in its RDF and on its page; task= overrides.
import { expect } from 'chai';
import { startApp, type TestApp } from '../helpers/app.ts';
import { followTask, uploadDataset } from '../helpers/datasets.ts';

async function apply(url: string, f: Record<string, string>): Promise<{ status: number; body: string }> {
  const res = await fetch(url, { method: 'POST', headers: { Accept: 'text/uri-list' }, body: new URLSearchParams(f) });
  const text = (await res.text()).trim();
  return res.status === 202 ? followTask(text) : { status: res.status, body: text };
}

const nt = async (url: string) => (await fetch(url, { headers: { Accept: 'application/n-triples' } })).text();

// Ames-style 0/1 coding with a third code, uploaded as plain numbers (no ?nominal=).
const CODED = `SMILES,Activity\n${['CCO', 'CCCO', 'CCCCO', 'CC(C)O', 'CCCCCO'].map((s) => `${s},0`).join('\n')}\n${['CCN', 'CCCN', 'CCCCN', 'CC(C)N', 'CCCCCN'].map((s) => `${s},1`).join('\n')}\n${['CC(=O)O', 'CCC(=O)O', 'CCCC(=O)O', 'CC(C)C(=O)O', 'CCCCC(=O)O'].map((s) => `${s},2`).join('\n')}\n`;

describe('task=auto: the model says which task it chose and why', function () {
  this.timeout(300_000);
  let app: TestApp;
  let dataset: string;
  let target: string;
  before(async () => {
    app = await startApp();
    dataset = (await uploadDataset(app, CODED, 'text/csv')).body;
    const line = (await nt(dataset)).split('\n').find((l) => l.includes('/title> "Activity"') && l.includes('/feature/'))!;
    target = line.slice(1, line.indexOf('>'));
  });
  after(async () => { await app.close(); });

  for (const id of ['knn', 'random-forest']) {
    it(`${id}: integer codes 0/1/2 train classes by default, said in the RDF and on the page`, async () => {
      const built = await apply(`${app.url}/algorithm/${id}`, { dataset_uri: dataset, prediction_feature: target, folds: '3', ...(id === 'random-forest' ? { trees: '10' } : {}) });
      expect(built.status, built.body).to.equal(200);
      const triples = await nt(built.body);
      const own = `${app.url}/ontology/service#`;
      expect(triples).to.contain('#classificationStatistics>').and.not.contain('#regressionStatistics>');
      expect(triples).to.contain(`<${built.body}> <${own}task> "classification" .`);
      expect(triples).to.contain(`<${built.body}> <${own}taskReason> "the endpoint's values are 3 distinct integers (at most 10): classes (scikit-learn's type_of_target: multiclass)" .`);
      const page = await fetch(built.body, { headers: { Accept: 'text/html' } });
      expect(page.status).to.equal(200);
      expect(await page.text()).to.contain('<dt>Task</dt><dd>classification, because the endpoint&#39;s values are 3 distinct integers');
    });
  }

  it('task=regression overrides, and the model says it was asked', async () => {
    const built = await apply(`${app.url}/algorithm/knn`, { dataset_uri: dataset, prediction_feature: target, folds: '3', task: 'regression' });
    expect(built.status, built.body).to.equal(200);
    const triples = await nt(built.body);
    expect(triples).to.contain('#regressionStatistics>').and.not.contain('#classificationStatistics>');
    expect(triples).to.match(/service#taskReason> "task=regression was asked \(auto would choose classification: /);
  });
});
