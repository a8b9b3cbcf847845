import { expect } from 'chai';
import { startApp, type TestApp } from '../helpers/app.ts';
import { uploadDataset } from '../helpers/datasets.ts';

const CSV = 'SMILES,Activity,Name\nCC=O,1.5,acetaldehyde\nO=[N+]([O-])c1ccccc1,2.5,nitrobenzene\nc1ccccc1O,3.5,phenol\nCC(=O)O,4.5,acetic acid\n';

describe('structure search within a dataset', function () {
  this.timeout(120_000);
  let app: TestApp;
  let dataset: string;
  const get = (query: string, accept = 'text/csv') => fetch(`${dataset}?${query}`, { headers: { Accept: accept } });

  before(async () => {
    app = await startApp();
    const up = await uploadDataset(app, CSV, 'text/csv');
    expect(up.status, up.body).to.equal(200);
    dataset = up.body;
    // The same phenol outside the dataset must not be found by a search within it.
    await uploadDataset(app, 'SMILES,Other\nOc1ccccc1,7\nc1ccccc1[N+](=O)[O-],8\n', 'text/csv');
  });
  after(async () => { await app.close(); });

  const table: Array<[string, string[]]> = [
    ['smarts=' + encodeURIComponent('c1ccccc1'), ['nitrobenzene', 'phenol']],
    ['substructure=' + encodeURIComponent('C(=O)O'), ['acetic acid']],
    ['search=' + encodeURIComponent('O=CC'), ['acetaldehyde']],
    ['search=Phenol', ['phenol']],
    ['similarity=' + encodeURIComponent('Oc1ccccc1') + '&threshold=1', ['phenol']],
  ];
  for (const [query, names] of table) {
    it(`?${query} answers the dataset restricted to ${names.join(', ')}, values included`, async () => {
      const res = await get(query);
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.match(/^text\/csv/);
      const rows = (await res.text()).trim().split(/\r?\n/);
      expect(rows[0]).to.match(/Activity/);
      expect(rows.length).to.equal(names.length + 1);
      for (const n of names) expect(rows.some((r) => r.includes(n))).to.equal(true);
    });
  }

  it('a search result in RDF is a dataset with data entries', async () => {
    const res = await get('smarts=' + encodeURIComponent('[N+](=O)[O-]'), 'text/turtle');
    expect(res.status).to.equal(200);
    const body = await res.text();
    expect(body).to.match(/ot:Dataset/);
    // The rows' own values, not numbers (a dc:date such as 15:24:13.512 holds "3.5").
    expect(body).to.contain('"nitrobenzene"');
    expect(body).not.to.contain('"phenol"');
  });

  it('no hit answers an empty result, not the whole dataset', async () => {
    const res = await get('smarts=' + encodeURIComponent('[Cl]'), 'text/uri-list');
    expect(res.status).to.equal(200);
    expect((await res.text()).trim()).to.equal('');
  });

  it('pages over the hits', async () => {
    const res = await get('smarts=' + encodeURIComponent('c1ccccc1') + '&page=1&pagesize=1');
    const rows = (await res.text()).trim().split(/\r?\n/);
    expect(rows.length).to.equal(2);
    expect(rows[1]).to.contain('phenol');
  });

  const bad: Array<[string, number]> = [
    ['smarts=' + encodeURIComponent('[C;X4'), 400],
    ['similarity=CCO&threshold=2', 400],
  ];
  for (const [query, status] of bad) {
    it(`?${query} answers ${status}`, async () => {
      expect((await get(query, 'text/plain')).status).to.equal(status);
    });
  }

  it('an unknown dataset answers 404', async () => {
    const res = await fetch(`${app.url}/dataset/99999?smarts=C`, { headers: { Accept: 'text/plain' } });
    expect(res.status).to.equal(404);
  });
});
