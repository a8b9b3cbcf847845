// Upload warnings where people look: the dataset's metadata counts the rows dropped and
// the cells emptied and links GET /dataset/{id}/warnings (RDF, text/csv, text/plain); the
// dataset page shows them at the top.
import { expect } from 'chai';
import { startApp, type TestApp } from '../helpers/app.ts';
import { uploadDataset } from '../helpers/datasets.ts';

// Line 3 holds a SMILES no toolkit reads (row dropped); line 5 text in the numeric column (cell emptied).
const CSV = 'SMILES,LogP\nCCO,-0.31\nC1CC(,1.2\nCCCO,0.25\nCCCCO,abc\nCCN,-0.13\n';

describe('GET /dataset/{id}/warnings and the warnings in the metadata and on the page', function () {
  this.timeout(120_000);
  let app: TestApp;
  let dataset: string;
  let clean: string;
  let own: string;
  before(async () => {
    app = await startApp();
    own = `${app.url}/ontology/service#`;
    const up = await uploadDataset(app, CSV, 'text/csv');
    expect(up.status, up.body).to.equal(200);
    dataset = up.body;
    clean = (await uploadDataset(app, 'SMILES,LogP\nCCO,-0.31\n', 'text/csv')).body;
  });
  after(async () => { await app.close(); });

  it('the metadata of the upload\'s result says how many rows were dropped and cells emptied, and links the warnings', async () => {
    const res = await fetch(`${dataset}/metadata`, { headers: { Accept: 'application/n-triples' } });
    expect(res.status).to.equal(200);
    const nt = await res.text();
    expect(nt).to.contain(`<${dataset}> <${own}droppedRows> "1"^^<http://www.w3.org/2001/XMLSchema#integer> .`);
    expect(nt).to.contain(`<${dataset}> <${own}emptiedCells> "1"^^<http://www.w3.org/2001/XMLSchema#integer> .`);
    expect(nt).to.contain(`<${dataset}> <${own}warnings> <${dataset}/warnings> .`);
    // The whole dataset's RDF carries them too; a dataset without warnings has none of this.
    expect(await (await fetch(dataset, { headers: { Accept: 'application/n-triples' } })).text()).to.contain(`<${own}droppedRows> "1"`);
    expect(await (await fetch(`${clean}/metadata`, { headers: { Accept: 'application/n-triples' } })).text()).to.not.contain(own);
  });

  const formats: Array<[string, RegExp, (body: string) => void]> = [
    ['text/csv', /^text\/csv/, (b) => {
      const rows = b.trim().split(/\r\n/);
      expect(rows[0]).to.equal('row,column,message');
      expect(rows).to.have.length(3);
      expect(rows[1]).to.match(/^3,,"SMILES: ""C1CC\(.*row skipped"$/);
      expect(rows[2]).to.match(/^5,2,"\(""LogP""\): value ""abc"" is not a number; cell left empty"$/);
    }],
    ['text/plain', /^text\/plain/, (b) => {
      const lines = b.trim().split('\n');
      expect(lines).to.have.length(2);
      expect(lines[0]).to.match(/^row 3: .*row skipped$/);
      expect(lines[1]).to.equal('row 5, column 2 ("LogP"): value "abc" is not a number; cell left empty');
    }],
    ['text/turtle', /^text\/turtle/, (b) => {
      expect(b).to.match(/ot:warning "row 3: SMILES: \\"C1CC\(.*row skipped"/).and.contain('"row 5, column 2 (\\"LogP\\"): value \\"abc\\" is not a number; cell left empty"');
      expect(b).to.contain('droppedRows');
    }],
  ];
  for (const [accept, type, check] of formats) {
    it(`answers ${accept}`, async () => {
      const res = await fetch(`${dataset}/warnings`, { headers: { Accept: accept } });
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.match(type);
      check(await res.text());
    });
  }

  it('answers an empty list for a dataset without warnings and 404 for no dataset', async () => {
    const none = await fetch(`${clean}/warnings`, { headers: { Accept: 'text/csv' } });
    expect(none.status).to.equal(200);
    expect((await none.text()).trim()).to.equal('row,column,message');
    expect((await fetch(`${app.url}/dataset/999999/warnings`, { headers: { Accept: 'text/csv' } })).status).to.equal(404);
  });

  it('the dataset page shows the warnings at the top, with the counts and a link', async () => {
    const res = await fetch(dataset, { headers: { Accept: 'text/html' } });
    expect(res.status).to.equal(200);
    const page = await res.text();
    const box = page.indexOf('<section class="box warnings"');
    expect(box).to.be.greaterThan(0).and.lessThan(page.indexOf('<table class="entries"'));
    expect(page).to.contain('<h2>2 warnings</h2>').and.contain('1 row dropped, 1 cell left empty.').and.contain(`<a href="${dataset}/warnings">All warnings</a>`);
    expect(page).to.contain('row 5, column 2 (&quot;LogP&quot;): value &quot;abc&quot; is not a number; cell left empty');
  });
});
