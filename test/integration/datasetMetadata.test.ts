// PUT /dataset/{id}/metadata keeps every statement the client sent about the dataset, or
// answers 400 naming what it refuses; never 200 with something dropped.
import { expect } from 'chai';
import { startApp, type TestApp } from '../helpers/app.ts';
import { uploadDataset } from '../helpers/datasets.ts';

const NT = 'application/n-triples';
const DC = 'http://purl.org/dc/elements/1.1/';
const DCTERMS = 'http://purl.org/dc/terms/';

describe('PUT /dataset/{id}/metadata', function () {
  this.timeout(60_000);
  let app: TestApp;
  let dataset: string;
  before(async () => {
    app = await startApp();
    dataset = (await uploadDataset(app, 'SMILES,a\nCCO,1\nCCCO,2\n', 'text/csv')).body;
  });
  after(async () => { await app.close(); });

  const put = (body: string, type = NT) => fetch(dataset + '/metadata', { method: 'PUT', headers: { 'Content-Type': type, Accept: 'text/plain' }, body });
  const metadata = async () => (await fetch(dataset + '/metadata', { headers: { Accept: NT } })).text();

  it('keeps dc:title, dc:rights and dcterms:license', async () => {
    const res = await put([
      `<${dataset}> <${DC}title> "Ethanol and propanol" .`,
      `<${dataset}> <${DC}rights> "CC BY 4.0, see the license" .`,
      `<${dataset}> <${DCTERMS}license> <https://creativecommons.org/licenses/by/4.0/> .`,
    ].join('\n'));
    expect(res.status, await res.text()).to.equal(200);
    const nt = await metadata();
    expect(nt).to.contain(`<${DC}title> "Ethanol and propanol"`);
    expect(nt).to.contain(`<${DC}rights> "CC BY 4.0, see the license"`);
    expect(nt).to.contain(`<${DCTERMS}license> <https://creativecommons.org/licenses/by/4.0/>`);
  });

  it('takes back what GET gave, with one value edited', async () => {
    const edited = (await metadata()).replace('"Ethanol and propanol"', '"Two alcohols"');
    const res = await put(edited);
    expect(res.status, await res.text()).to.equal(200);
    const nt = await metadata();
    expect(nt).to.contain('"Two alcohols"').and.not.contain('"Ethanol and propanol"');
    expect(nt).to.contain(`<${DCTERMS}license>`);
  });

  const refused: Array<[string, (d: string) => string, string]> = [
    ['a changed dc:date', (d) => `<${d}> <${DC}date> "1999-01-01T00:00:00Z"^^<http://www.w3.org/2001/XMLSchema#dateTime> .`, `${DC}date`],
    ['a statement about another subject', (d) => `<${d}> <${DC}title> "x" .\n<http://example.org/other> <${DC}title> "y" .`, 'http://example.org/other'],
    ['a blank node object', (d) => `<${d}> <${DCTERMS}license> _:b .\n_:b <${DC}title> "CC" .`, `${DCTERMS}license`],
  ];
  for (const [what, body, named] of refused) {
    it(`answers 400 naming ${what}, and changes nothing`, async () => {
      const before = await metadata();
      const res = await put(body(dataset));
      expect(res.status).to.equal(400);
      expect(await res.text()).to.contain(named);
      expect(await metadata()).to.equal(before);
    });
  }
});
