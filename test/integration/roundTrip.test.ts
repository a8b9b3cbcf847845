// Export → import → export gives the same table: the service's own CSV and SD files read
// back without a spurious SMILES or compound_uri feature and with the same names.
import { expect } from 'chai';
import { startApp, type TestApp } from '../helpers/app.ts';
import { lines, uploadDataset } from '../helpers/datasets.ts';

const CSV = 'text/csv';
const SDF = 'chemical/x-mdl-sdfile';

describe('dataset round trips', function () {
  this.timeout(120_000);
  let app: TestApp;
  let original: string;
  before(async () => {
    app = await startApp();
    const csv = [
      'SMILES,logP,class,"note, with comma"',
      'CCO,-0.31,active,"said ""short"""',
      'c1ccccc1O,1.46,inactive,',
      'CC(=O)Nc1ccc(O)cc1,0.46,active,paracetamol',
      'OC(=O)c1ccccc1OC(C)=O,,inactive,aspirin',
    ].join('\n') + '\n';
    original = (await uploadDataset(app, csv, CSV)).body;
  });
  after(async () => { await app.close(); });

  const text = async (url: string, accept: string) => {
    const res = await fetch(url, { headers: { Accept: accept } });
    expect(res.status).to.equal(200);
    return res.text();
  };
  const featureTitles = async (dataset: string) => (await lines(dataset, CSV))[0];

  it('CSV: re-uploading the exported CSV gives the same CSV and no SMILES feature', async () => {
    const first = await text(original, CSV);
    const copy = await uploadDataset(app, first, CSV);
    expect(copy.status, copy.body).to.equal(200);
    expect(await lines(copy.body + '/features')).to.have.length((await lines(original + '/features')).length);
    expect(await text(copy.body, CSV)).to.equal(first);
  });

  it('SDF: re-uploading the exported SD file gives the same SD file and table, and no compound_uri feature', async () => {
    const first = await text(original, SDF);
    expect(first).to.contain('> <compound_uri>');
    const copy = await uploadDataset(app, first, SDF);
    expect(copy.status, copy.body).to.equal(200);
    expect(await featureTitles(copy.body)).to.equal(await featureTitles(original)).and.not.contain('compound_uri');
    expect(await text(copy.body, SDF)).to.equal(first);
    expect(await text(copy.body, CSV)).to.equal(await text(original, CSV));
  });

  it('a row whose compound URI no longer exists is read from its SMILES', async () => {
    const csv = `Compound,SMILES,x\n${app.url}/compound/9999,CCCC,1\n`;
    const copy = await uploadDataset(app, csv, CSV);
    expect(copy.status, copy.body).to.equal(200);
    const rows = await lines(copy.body, CSV);
    expect(rows[0]).to.equal('Compound,SMILES,x');
    expect(rows[1]).to.match(new RegExp(`^${app.url}/compound/\\d+,CCCC,1$`)).and.not.contain('/compound/9999');
  });
});
