// CSV dialects and bad cells: a tab- or semicolon-separated table loads as the columns it
// has (or is refused with the first row's problem, never an empty 200), and one unreadable
// value in a numeric column leaves that cell empty with a warning naming row and column.
import { expect } from 'chai';
import { startApp, type TestApp } from '../helpers/app.ts';
import { lines, uploadDataset, warnings } from '../helpers/datasets.ts';
import { OT } from '../../src/rdf/vocab.ts';

/** The dataset's own CSV export, as rows of cells (header first). */
async function table(dataset: string): Promise<string[][]> {
  return (await lines(dataset, 'text/csv')).map((l) => l.split(','));
}

/** The rdf:type IRIs of a feature. */
async function featureTypes(feature: string): Promise<string[]> {
  const nt = await (await fetch(feature, { headers: { Accept: 'application/n-triples' } })).text();
  return nt.split('\n').filter((l) => l.startsWith(`<${feature}> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type>`)).map((l) => l.split(' ')[2]!.slice(1, -1));
}

describe('CSV dialects', function () {
  this.timeout(60_000);
  let app: TestApp;
  before(async () => { app = await startApp(); });
  after(async () => { await app.close(); });

  const DIALECTS: Array<[string, string, string]> = [
    ['tab-separated, sent as text/csv', 'text/csv', 'SMILES\tLC50\nCCO\t1.5\nc1ccccc1\t2.25\n'],
    ['tab-separated, sent as text/tab-separated-values', 'text/tab-separated-values', 'SMILES\tLC50\nCCO\t1.5\nc1ccccc1\t2.25\n'],
    ['semicolon-separated', 'text/csv', 'SMILES;LC50\nCCO;1.5\nc1ccccc1;2.25\n'],
    ['semicolon-separated with an InChI column (commas inside values)', 'text/csv', 'InChI;LC50\nInChI=1S/C2H6O/c1-2-3/h3H,2H2,1H3;1.5\nInChI=1S/C6H6/c1-2-4-6-5-3-1/h1-6H;2.25\n'],
  ];
  for (const [name, type, body] of DIALECTS) {
    it(`${name}: two compounds and one numeric feature LC50`, async () => {
      const { status, body: dataset } = await uploadDataset(app, body, type);
      expect(status, dataset).to.equal(200);
      const features = await lines(dataset + '/features');
      expect(features).to.have.length(1);
      expect(await featureTypes(features[0]!)).to.include(OT.NumericFeature.value);
      const rows = await table(dataset);
      expect(rows[0]!.slice(1).join()).to.match(/LC50/);
      expect(rows.slice(1).map((r) => Number(r[r.length - 1])).sort()).to.deep.equal([1.5, 2.25]);
      expect(await lines(dataset + '/compounds')).to.have.length(2);
      expect(await warnings(dataset)).to.deep.equal([]);
    });
  }

  it('a file where no row loads answers 400 naming the first row\'s problem, and stores no dataset', async () => {
    const before = await lines(app.url + '/dataset').catch(() => []);
    const res = await fetch(app.url + '/dataset', { method: 'POST', headers: { 'Content-Type': 'text/csv', Accept: 'text/plain' }, body: 'SMILES,LC50\nXyz,1\nC1CC,2\n' });
    expect(res.status).to.equal(400);
    expect(res.headers.get('content-type')).to.match(/^text\/plain/);
    const text = await res.text();
    expect(text).to.match(/^400 BadRequest: no row loaded: row 2: /);
    expect(text).to.contain('"Xyz" is not a valid structure');
    expect(await lines(app.url + '/dataset').catch(() => [])).to.deep.equal(before);
  });

  it('a header without rows answers 400', async () => {
    const res = await fetch(app.url + '/dataset', { method: 'POST', headers: { 'Content-Type': 'text/csv', Accept: 'text/plain' }, body: 'SMILES,LC50\n' });
    expect(res.status).to.equal(400);
    expect(await res.text()).to.match(/^400 BadRequest: no rows: the CSV has a header line and nothing else/);
  });
});

describe('one bad cell in a numeric column', function () {
  this.timeout(60_000);
  let app: TestApp;
  before(async () => { app = await startApp(); });
  after(async () => { await app.close(); });

  it('keeps the column numeric, leaves that cell empty and warns with its row and column', async () => {
    const csv = 'SMILES,Name,LC50\nCCO,ethanol,1.5\nCCC,propane,abc\nCCCC,butane,2.5\nc1ccccc1,benzene,3\n';
    const { status, body: dataset } = await uploadDataset(app, csv, 'text/csv');
    expect(status, dataset).to.equal(200);
    const features = await lines(dataset + '/features');
    expect(features).to.have.length(2);
    const types = await Promise.all(features.map(featureTypes));
    expect(types.filter((t) => t.includes(OT.NumericFeature.value))).to.have.length(1);
    const rows = await table(dataset);
    const lc50 = rows[0]!.findIndex((h) => h.includes('LC50'));
    const name = rows[0]!.findIndex((h) => h.includes('Name'));
    const byName = new Map(rows.slice(1).map((r) => [r[name], r[lc50]]));
    expect(Object.fromEntries(byName)).to.deep.equal({ ethanol: '1.5', propane: '', butane: '2.5', benzene: '3' });
    expect(await warnings(dataset)).to.deep.equal(['row 3, column 3 ("LC50"): value "abc" is not a number; cell left empty']);
  });

  it('a column with many non-numbers stays a string column', async () => {
    const csv = 'SMILES,LC50\nCCO,>100\nCCC,abc\nCCCC,2.5\nc1ccccc1,3\n';
    const { status, body: dataset } = await uploadDataset(app, csv, 'text/csv');
    expect(status, dataset).to.equal(200);
    const features = await lines(dataset + '/features');
    expect(await featureTypes(features[0]!)).to.not.include(OT.NumericFeature.value);
    expect(await warnings(dataset)).to.deep.equal([]);
  });
});
