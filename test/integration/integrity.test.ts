// What others use is neither rewritten nor removed behind their back (docs/integrity.md):
// a structure change makes a new compound; a delete of something a dataset or model refers
// to, or a feature replacement that would rename dataset columns, answers 409 Conflict
// naming the referrers unless ?force=true.
import { expect } from 'chai';
import { startApp, type TestApp } from '../helpers/app.ts';
import { lines, uploadDataset } from '../helpers/datasets.ts';
import { createCompound } from '../helpers/compounds.ts';
import { createModel } from '../../src/models/models.ts';
import { ensureFeature } from '../../src/features/features.ts';

const SMILES = 'chemical/x-daylight-smiles';
const smilesOf = async (uri: string) => (await (await fetch(uri, { headers: { Accept: SMILES } })).text()).trim();
const del = (uri: string) => fetch(uri, { method: 'DELETE', headers: { Accept: 'text/plain' } });
const featureTtl = (title: string, more = '') => `@prefix ot: <http://www.opentox.org/api/1.1#> .
@prefix dc: <http://purl.org/dc/elements/1.1/> .
<http://x.example/f> a ot:Feature, ot:NumericFeature ; dc:title "${title}" ${more}.`;
const putFeature = (uri: string, body: string) => fetch(uri, { method: 'PUT', headers: { 'Content-Type': 'text/turtle', Accept: 'text/plain' }, body });

describe('integrity of what others use', function () {
  this.timeout(120_000);
  let app: TestApp;
  before(async () => { app = await startApp(); });
  after(async () => { await app.close(); });

  /** A dataset of ethanol and propanol with a numeric LC50 column: [dataset, ethanol, feature]. */
  async function dataset(): Promise<[string, string, string]> {
    const { status, body } = await uploadDataset(app, 'SMILES,LC50\nCCO,1.5\nCCCO,2.5\n', 'text/csv');
    expect(status, body).to.equal(200);
    // One structure is one compound: POST /compound answers the dataset's ethanol.
    const ethanol = await createCompound(app.url, 'CCO');
    expect(await lines(body + '/compounds')).to.include(ethanol);
    return [body, ethanol, (await lines(body + '/features'))[0]!];
  }

  describe('PUT /compound/{id}', () => {
    it('with another molecule answers a new compound; the old one and the datasets holding it are unchanged', async () => {
      const [ds] = await dataset();
      const before = await lines(ds, 'text/csv');
      const ethanol = await createCompound(app.url, 'CCO');
      const res = await fetch(ethanol, { method: 'PUT', headers: { 'Content-Type': SMILES, Accept: 'text/uri-list' }, body: 'CCCCBr' });
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.match(/^text\/uri-list/);
      const made = (await res.text()).trim();
      expect(made).to.match(new RegExp(`^${app.url}/compound/\\d+$`)).and.not.equal(ethanol);
      expect(await smilesOf(made)).to.equal('CCCCBr');
      expect(await smilesOf(ethanol)).to.equal('CCO');
      expect(await lines(ds, 'text/csv')).to.deep.equal(before);
    });

    it('with a structure already stored answers that compound', async () => {
      const ethanol = await createCompound(app.url, 'CCO');
      const methanol = await createCompound(app.url, 'CO');
      const res = await fetch(methanol, { method: 'PUT', headers: { 'Content-Type': SMILES, Accept: 'text/uri-list' }, body: 'OCC' });
      expect(res.status).to.equal(200);
      expect((await res.text()).trim()).to.equal(ethanol);
      expect(await smilesOf(methanol)).to.equal('CO');
    });

    it('with the same molecule replaces the representation in place', async () => {
      const ethanol = await createCompound(app.url, 'CCO');
      const res = await fetch(ethanol, { method: 'PUT', headers: { 'Content-Type': SMILES, Accept: 'text/uri-list' }, body: 'OCC' });
      expect(res.status).to.equal(200);
      expect((await res.text()).trim()).to.equal(ethanol);
    });
  });

  describe('DELETE of what a dataset holds', () => {
    it('a compound in a dataset: 409 naming the dataset, kept; with force=true deleted', async () => {
      const [ds, ethanol] = await dataset();
      const res = await del(ethanol);
      expect(res.status).to.equal(409);
      expect(res.headers.get('content-type')).to.match(/^text\/plain/);
      const text = await res.text();
      expect(text).to.match(/^409 ResourceInUse: /).and.contain(ds).and.contain('force=true');
      expect((await fetch(ethanol)).status).to.equal(200);
      expect((await del(ethanol + '?force=true')).status).to.equal(200);
      expect((await fetch(ethanol)).status).to.equal(404);
    });

    it('a compound nobody holds is deleted at once', async () => {
      const lone = await createCompound(app.url, 'CCCCCCCCCl');
      expect((await del(lone)).status).to.equal(200);
      expect((await fetch(lone)).status).to.equal(404);
    });

    it('a feature in a dataset: 409 naming the dataset; with force=true deleted', async () => {
      const [ds, , feature] = await dataset();
      const res = await del(feature);
      expect(res.status).to.equal(409);
      expect(await res.text()).to.contain(ds);
      expect((await fetch(feature)).status).to.equal(200);
      expect((await del(feature + '?force=true')).status).to.equal(200);
      expect((await fetch(feature)).status).to.equal(404);
    });

    it('force must be true or false', async () => {
      const [, ethanol] = await dataset();
      const res = await del(ethanol + '?force=yes please');
      expect(res.status).to.equal(400);
      expect(await res.text()).to.match(/^400 InvalidParameter: .*force/);
    });
  });

  describe('PUT /feature/{id} of a feature a dataset holds', () => {
    it('a new title or units: 409, the column keeps its name; with force=true replaced', async () => {
      const [ds, , feature] = await dataset();
      const header = (await lines(ds, 'text/csv'))[0];
      expect(header).to.contain('LC50');
      const units = await putFeature(feature, featureTtl('LC50', '; ot:units "mg/L" '));
      expect(units.status).to.equal(409);
      expect(await units.text()).to.contain('units');
      const res = await putFeature(feature, featureTtl('Boiling point'));
      expect(res.status).to.equal(409);
      expect(await res.text()).to.contain(ds).and.contain('title');
      expect((await lines(ds, 'text/csv'))[0]).to.equal(header);
      const forced = await putFeature(feature + '?force=true', featureTtl('Boiling point'));
      expect(forced.status).to.equal(200);
      expect((await lines(ds, 'text/csv'))[0]).to.contain('Boiling point');
    });

    it('the same title, type and units (a description added): replaced', async () => {
      const [, , feature] = await dataset();
      const res = await putFeature(feature, featureTtl('LC50', '; dc:description "fish, 96 h" '));
      expect(res.status, await res.clone().text()).to.equal(200);
      expect(await (await fetch(feature, { headers: { Accept: 'application/n-triples' } })).text()).to.contain('fish, 96 h');
    });
  });

  describe('what a model uses', () => {
    it('its training dataset and variables: 409 naming the model; after the model goes, deleted', async () => {
      const [ds, , feature] = await dataset();
      const predicted = await ensureFeature(app.deps, { title: 'LC50 (mean)', type: 'numeric', source: app.url + '/algorithm/mean' });
      const model = await createModel(app.deps, {
        title: 'mean of LC50', algorithm: app.url + '/algorithm/mean', trainingDataset: ds,
        independentVariables: [], dependentVariables: [feature], predictedVariables: [predicted], kind: 'test-mean', data: { mean: 2 },
      });
      const res = await del(ds);
      expect(res.status).to.equal(409);
      const text = await res.text();
      expect(text).to.match(/^409 ResourceInUse: /).and.contain(model).and.contain('ot:trainingDataset');
      expect((await fetch(ds, { headers: { Accept: 'text/csv' } })).status).to.equal(200);
      const f = await del(predicted);
      expect(f.status).to.equal(409);
      expect(await f.text()).to.contain(model);
      expect((await del(model)).status).to.equal(200);
      expect((await del(ds)).status).to.equal(200);
      expect((await fetch(ds)).status).to.equal(404);
      expect((await del(predicted)).status).to.equal(200);
    });
  });
});
