// Chemical files of several structures are dataset uploads (SPEC §2.2 formats): CML,
// SMILES and InChI files, mol2. Identities are checked against Open Babel's InChIKeys
// (obabel -icml diamantane.cml -oinchikey), not against our own output.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { startApp, type TestApp } from '../helpers/app.ts';
import { sharedData } from '../helpers/data.ts';
import { lines, uploadDataset } from '../helpers/datasets.ts';

const DIAMANTANE_KEYS = ['ZICQBHNGXDOVJF-UHFFFAOYSA-N', 'SNFCQJAJPFWBDJ-BXHCOLKRSA-N', 'RUELTTOHQODFPA-CNYGEUAXSA-N'];
// mol2 has no isotopes: obabel -icml diamantane.cml -omol2 | obabel -imol2 -oinchikey.
const MOL2_KEYS = ['ZICQBHNGXDOVJF-UHFFFAOYSA-N', 'SNFCQJAJPFWBDJ-UHFFFAOYSA-N', 'RUELTTOHQODFPA-UHFFFAOYSA-N'];

describe('dataset upload of multi-structure chemical files', function () {
  this.timeout(120_000);
  let app: TestApp;
  before(async () => { app = await startApp(); });
  after(async () => { await app.close(); });

  const inchiKeys = async (compounds: string[]) => Promise.all(compounds.map(async (c) => (await app.deps.store.graph(c)).find((q) => q.predicate.value === 'http://schema.org/inChIKey')?.object.value));
  let cmlCompounds: string[] = [];

  it('chemical/x-cml: the three molecules of diamantane.cml, with the CasRN property as a feature', async () => {
    const { status, body } = await uploadDataset(app, readFileSync(sharedData('ambit', 'diamantane.cml')), 'chemical/x-cml');
    expect(status, body).to.equal(200);
    const compounds = await lines(body + '/compounds');
    expect(compounds).to.have.length(3);
    expect(await inchiKeys(compounds)).to.deep.equal(DIAMANTANE_KEYS);
    cmlCompounds = compounds;
    const csv = await lines(body, 'text/csv');
    expect(csv[0]).to.equal('Compound,SMILES,CasRN');
    expect(csv.slice(1).map((l) => l.split(',').pop())).to.deep.equal(['', '1728-95-6', '91-08-7']);
  });

  it('chemical/x-daylight-smiles: one structure per line, the rest of the line its name', async () => {
    const { status, body } = await uploadDataset(app, 'CCO ethanol\nc1ccccc1 benzene\n\nCC(=O)O acetic acid\n', 'chemical/x-daylight-smiles');
    expect(status, body).to.equal(200);
    const csv = await lines(body, 'text/csv');
    expect(csv).to.deep.equal(['Compound,SMILES,name', ...['CCO,ethanol', 'c1ccccc1,benzene', 'CC(=O)O,acetic acid'].map((r, i) => `${csv[i + 1]!.split(',')[0]},${r}`)]);
  });

  it('chemical/x-inchi: one InChI per line', async () => {
    const { status, body } = await uploadDataset(app, 'InChI=1S/C2H6O/c1-2-3/h3H,2H2,1H3 ethanol\nInChI=1S/C6H6/c1-2-4-6-5-3-1/h1-6H benzene\n', 'chemical/x-inchi');
    expect(status, body).to.equal(200);
    expect((await lines(body, 'text/csv')).slice(1).map((l) => l.split(',').slice(1).join(','))).to.deep.equal(['CCO,ethanol', 'c1ccccc1,benzene']);
  });

  it('chemical/x-mol2: the three diamantane.cml molecules, as one mol2 file', async () => {
    const parts = await Promise.all(cmlCompounds.map(async (c) => (await fetch(c, { headers: { Accept: 'chemical/x-mol2' } })).text()));
    expect(parts.every((p) => p.startsWith('@<TRIPOS>MOLECULE'))).to.equal(true);
    const { status, body } = await uploadDataset(app, parts.join('\n'), 'chemical/x-mol2');
    expect(status, body).to.equal(200);
    expect(await inchiKeys(await lines(body + '/compounds'))).to.deep.equal(MOL2_KEYS);
  });

  it('a CML document without molecules answers 400', async () => {
    const res = await fetch(app.url + '/dataset', { method: 'POST', headers: { 'Content-Type': 'chemical/x-cml' }, body: '<?xml version="1.0"?><list/>' });
    expect(res.status).to.equal(400);
    expect(await res.text()).to.contain('molecule');
  });
});
