import { expect } from 'chai';
import { parse } from 'csv-parse/sync';
import { startApp, type TestApp } from '../helpers/app.ts';
import { uploadDataset } from '../helpers/datasets.ts';

// A dataset large enough that the CSV writer's inner loops run optimised: V8 on Node 20
// once died in its deoptimizer (a fatal error that ends the process) on that path. The
// stream must come back whole, row for row as uploaded (SPEC §4.3: text/csv output).
const ROWS = 5000;
const FEATURES = 20;
const value = (i: number, j: number) => (((i * 7919 + j * 104729) % 100000) / 997).toFixed(4);

describe('dataset streamed back as CSV: 5,000 rows × 20 features', function () {
  this.timeout(300_000);
  let app: TestApp;
  before(async () => { app = await startApp({ bodyLimit: 64 * 1024 * 1024 }); });
  after(async () => { await app.close(); });

  it('answers every row with its compound and values, twice in a row', async () => {
    const header = ['compound', ...Array.from({ length: FEATURES }, (_, j) => `descriptor ${j + 1}`)];
    let csv = header.join(',') + '\n';
    for (let i = 0; i < ROWS; i++) {
      let line = `http://compounds.example.org/compound/${i + 1}`;
      for (let j = 0; j < FEATURES; j++) line += ',' + value(i, j);
      csv += line + '\n';
    }
    const { status, body } = await uploadDataset(app, csv, 'text/csv');
    expect(status, body).to.equal(200);
    for (let round = 0; round < 2; round++) {
      const res = await fetch(body, { headers: { Accept: 'text/csv' } });
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.match(/^text\/csv/);
      const [head, ...rows] = parse(await res.text()) as string[][];
      expect(head).to.deep.equal(['Compound', 'SMILES', ...header.slice(1)]);
      expect(rows).to.have.length(ROWS);
      for (const i of [0, 1, 2499, ROWS - 1]) {
        // Another service's compound: no SMILES here; values as written (4 decimals).
        expect(rows[i]!.slice(0, 2)).to.deep.equal([`http://compounds.example.org/compound/${i + 1}`, '']);
        expect(rows[i]!.slice(2).map(Number)).to.deep.equal(Array.from({ length: FEATURES }, (_, j) => Number(value(i, j))));
      }
    }
  });
});
