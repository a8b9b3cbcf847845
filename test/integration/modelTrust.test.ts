import { expect } from 'chai';
import { startApp, type TestApp } from '../helpers/app.ts';
import { followTask, lines, uploadDataset } from '../helpers/datasets.ts';

const form = (f: Record<string, string | string[]>) => {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(f)) for (const x of Array.isArray(v) ? v : [v]) body.append(k, x);
  return body;
};

/** POSTs a form and follows the task; answers the final status and the result (or error) text. */
async function apply(url: string, f: Record<string, string | string[]>): Promise<{ status: number; body: string }> {
  const res = await fetch(url, { method: 'POST', headers: { Accept: 'text/uri-list' }, body: form(f) });
  const text = (await res.text()).trim();
  return res.status === 202 ? followTask(text) : { status: res.status, body: text };
}

const nt = async (url: string) => (await fetch(url, { headers: { Accept: 'application/n-triples' } })).text();
const objects = (triples: string, subject: string, predicate: string) => triples.split('\n')
  .filter((l) => l.startsWith(`<${subject}> `) && l.includes(`${predicate}> `))
  .map((l) => l.slice(l.indexOf(`${predicate}> `) + predicate.length + 2, l.lastIndexOf(' .')).replace(/^<|>$/g, '').replace(/^"(.*)"(\^\^<[^>]*>)?$/, '$1'));
const featureOf = async (dataset: string, title: string) => {
  const triples = await nt(dataset);
  const line = triples.split('\n').find((l) => l.includes('/title> ') && l.includes(`"${title}"`) && l.startsWith('<') && l.includes('/feature/'));
  return line!.slice(1, line!.indexOf('>'));
};

/** The model's predicted-value feature (not its confidence or domain flag). */
async function predictedValue(model: string): Promise<string> {
  for (const f of objects(await nt(model), model, '#predictedVariables')) {
    if (!objects(await nt(f), f, '/title')[0].includes(': ')) return f;
  }
  throw new Error(`${model} has no predicted value feature`);
}

// Activity coded 0/1/2 by functional group: alcohols 0, amines 1, carboxylic acids 2.
const CODED = `SMILES,Activity
CCO,0
CCCO,0
CCCCO,0
CC(C)O,0
CCCCCO,0
CCN,1
CCCN,1
CCCCN,1
CC(C)N,1
CCCCCN,1
CC(=O)O,2
CCC(=O)O,2
CCCC(=O)O,2
CC(C)C(=O)O,2
CCCCC(=O)O,2
`;

describe('models a toxicologist can trust', function () {
  this.timeout(300_000);
  let app: TestApp;
  before(async () => { app = await startApp(); });
  after(async () => { await app.close(); });

  describe('integer-coded classes (SPEC §2.2 ot:NominalFeature)', () => {
    let nominal: string;
    let activity: string;
    before(async () => {
      const up = await uploadDataset(app, CODED, 'text/csv', `${app.url}/dataset?nominal=Activity`);
      expect(up.status, up.body).to.equal(200);
      nominal = up.body;
      activity = await featureOf(nominal, 'Activity');
    });

    it('POST /dataset?nominal=<column> stores that column as a nominal feature with its accept values', async () => {
      const triples = await nt(activity);
      expect(objects(triples, activity, '#type')).to.include('http://www.opentox.org/api/1.1#NominalFeature');
      expect(objects(triples, activity, '#acceptValue').sort()).to.deep.equal(['0', '1', '2']);
    });

    it('a nominal column that is not in the upload answers 400 naming it', async () => {
      const res = await fetch(`${app.url}/dataset?nominal=Activty`, { method: 'POST', headers: { 'Content-Type': 'text/csv' }, body: CODED });
      expect(res.status).to.equal(400);
      const text = await res.text();
      expect(text).to.contain('Activty').and.contain('"Activity"');
    });

    it('kNN and random forest learn classes from a nominal feature, and k=1 predicts each training compound its own class', async () => {
      for (const id of ['knn', 'random-forest']) {
        const built = await apply(`${app.url}/algorithm/${id}`, { dataset_uri: nominal, prediction_feature: activity, folds: '3', ...(id === 'knn' ? { k: '1' } : { trees: '10' }) });
        expect(built.status, built.body).to.equal(200);
        const triples = await nt(built.body);
        expect(triples, id).to.contain('#classificationStatistics>').and.not.contain('#regressionStatistics>');
        const value = await predictedValue(built.body);
        expect(objects(await nt(value), value, '#acceptValue').sort(), id).to.deep.equal(['0', '1', '2']);
        if (id !== 'knn') continue;
        const predicted = await apply(built.body, { dataset_uri: nominal });
        expect(predicted.status, predicted.body).to.equal(200);
        const csv = (await lines(predicted.body, 'text/csv')).slice(1).map((l) => l.split(','));
        // Each compound's nearest training compound is itself (Tanimoto 1): its own class.
        expect(csv.map((r) => r[2])).to.deep.equal(CODED.trim().split('\n').slice(1).map((l) => l.split(',')[1]));
      }
    });

    it('a classification-only algorithm reads a numeric feature of a few integers as classes', async () => {
      const numeric = (await uploadDataset(app, CODED, 'text/csv')).body;
      const codes = await featureOf(numeric, 'Activity');
      expect(objects(await nt(codes), codes, '#type')).to.include('http://www.opentox.org/api/1.1#NumericFeature');
      const built = await apply(`${app.url}/algorithm/logistic-regression`, { dataset_uri: numeric, prediction_feature: codes, folds: '3' });
      expect(built.status, built.body).to.equal(200);
      const triples = await nt(built.body);
      expect(triples).to.contain('#classificationStatistics>');
      const cells = objects(triples, `${built.body}#statistics`, '#confusionMatrix');
      expect(cells).to.have.length(9);
    });
  });

  it('each model has its own predicted and confidence features, with ot:hasSource the model', async () => {
    const a = (await uploadDataset(app, CODED, 'text/csv', `${app.url}/dataset?nominal=Activity`)).body;
    const b = (await uploadDataset(app, CODED.split('\n').slice(0, 12).join('\n') + '\n', 'text/csv', `${app.url}/dataset?nominal=Activity`)).body;
    const models: string[] = [];
    const predicted: string[][] = [];
    for (const d of [a, b]) {
      const built = await apply(`${app.url}/algorithm/knn`, { dataset_uri: d, prediction_feature: await featureOf(d, 'Activity'), folds: '2' });
      expect(built.status, built.body).to.equal(200);
      models.push(built.body);
      predicted.push(objects(await nt(built.body), built.body, '#predictedVariables'));
    }
    expect(predicted[0]).to.have.length(3);
    expect(predicted[0].filter((f) => predicted[1].includes(f))).to.deep.equal([]);
    for (const [k, features] of predicted.entries()) {
      for (const f of features) expect(objects(await nt(f), f, '#hasSource'), f).to.deep.equal([models[k]]);
    }
  });
});
