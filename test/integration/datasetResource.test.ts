import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { RdfXmlParser } from 'rdfxml-streaming-parser';
import { Parser } from 'n3';
import { startApp, type TestApp } from '../helpers/app.ts';
import { sharedData } from '../helpers/data.ts';
import { lines, uploadDataset, warnings } from '../helpers/datasets.ts';

const MULTI = readFileSync(sharedData('opentox-test', 'multicolumn.csv'), 'utf8');

function rdfXmlTriples(text: string): Promise<number> {
  return new Promise((resolve, reject) => {
    let n = 0;
    const p = new RdfXmlParser();
    p.on('data', () => n++).on('error', reject).on('end', () => resolve(n));
    p.end(text);
  });
}

describe('/dataset resource', function () {
  this.timeout(120_000);
  let app: TestApp;
  let multi: string;
  before(async () => {
    app = await startApp();
    const up = await uploadDataset(app, MULTI, 'text/csv');
    expect(up.status, up.body).to.equal(200);
    multi = up.body;
  });
  after(async () => { await app.close(); });

  it('multicolumn.csv: 6 features by their values, warnings for the duplicate and unreadable rows', async () => {
    const nt = await (await fetch(multi + '/features', { headers: { Accept: 'application/n-triples' } })).text();
    expect(nt.match(/#NumericFeature>/g)).to.have.length(3);
    expect(nt.match(/#NominalFeature>/g)).to.have.length(3);
    const w = (await warnings(multi)).sort();
    expect(w).to.have.length(3);
    expect(w[0]).to.match(/^row 6: duplicate structure: same compound as row 4/);
    expect(w[1]).to.match(/^row 7: duplicate structure: same compound as row 5/);
    expect(w[2]).to.match(/^row 8: SMILES: "c1nccc1" is not a valid structure.*row skipped$/);
  });

  it('answers every format, the RDF in the OpenTox dataEntry structure', async () => {
    const xml = await (await fetch(multi)).text();
    expect(xml).to.contain('<ot:Dataset').and.contain('<ot:DataEntry').and.contain('<ot:FeatureValue');
    expect(await rdfXmlTriples(xml)).to.be.greaterThan(100);
    for (const type of ['text/turtle', 'application/n-triples', 'text/n3']) {
      const res = await fetch(multi, { headers: { Accept: type } });
      expect(res.headers.get('content-type')).to.contain(type);
      expect(new Parser({ format: type === 'text/n3' ? 'text/n3' : type }).parse(await res.text()).length).to.be.greaterThan(100);
    }
    const json = await (await fetch(multi, { headers: { Accept: 'application/ld+json' } })).json() as { '@graph': unknown[] };
    expect(json['@graph'].length).to.be.greaterThan(20);
    const csv = await lines(multi, 'text/csv');
    expect(csv[0]).to.equal('Compound,SMILES,Hamster Carcinogenicity,numeric feature,classification,mixed,string,regression');
    expect(csv).to.have.length(7);
    expect(csv[1]).to.match(/^http:\/\/[^,]+\/compound\/\d+,NNc1ccccc1,1,1,true,true,test,1.1$/);
    const sdf = await (await fetch(multi, { headers: { Accept: 'chemical/x-mdl-sdfile' } })).text();
    expect(sdf.match(/^\$\$\$\$$/gm)).to.have.length(6);
    expect(sdf).to.contain('> <regression>');
  });

  it('restricts by compound_uris[] and feature_uris[], and pages', async () => {
    const compounds = await lines(multi + '/compounds');
    const features = await lines(multi + '/features');
    expect(compounds).to.have.length(4);
    const url = `${multi}?compound_uris[]=${encodeURIComponent(compounds[2]!)}&feature_uris[]=${encodeURIComponent(features[5]!)}&feature_uris[]=${encodeURIComponent(features[0]!)}`;
    const csv = await lines(url, 'text/csv');
    expect(csv[0]).to.equal('Compound,SMILES,regression,Hamster Carcinogenicity');
    expect(csv.slice(1).map((l) => l.split(',').slice(2).join(','))).to.deep.equal(['3578.239,1', '1,1']);
    const page = await fetch(`${multi}?page=1&pagesize=2`, { headers: { Accept: 'text/csv' } });
    expect((await page.text()).trim().split(/\r?\n/)).to.have.length(3);
    expect(page.headers.get('link')).to.contain('page=2');
  });

  it('loads an SD file with a broken record in the middle, with a warning for it', async () => {
    const one = readFileSync(sharedData('opentox-test', 'acetaldehyde.sdf'), 'utf8');
    const broken = one.replace(/M {2}END[\s\S]*/, '').split('\n').slice(0, 6).join('\n') + '\n> <x>\n1\n\n$$$$\n';
    const up = await uploadDataset(app, one + broken + readFileSync(sharedData('ambit', 'test.sdf'), 'utf8').split('$$$$')[0] + '$$$$\n', 'chemical/x-mdl-sdfile');
    expect(up.status, up.body).to.equal(200);
    expect(await lines(up.body + '/compounds')).to.have.length(2);
    expect(await warnings(up.body)).to.deep.equal(['row 2: no "M  END" line: not a molfile record; record skipped']);
  });

  const bad: Array<[string, () => Promise<Response>, number, string]> = [
    ['a CSV without a structure column', () => fetch(app.url + '/dataset', { method: 'POST', headers: { 'Content-Type': 'text/csv' }, body: readFileSync(sharedData('ambit', 'PK-test.csv'), 'utf8') }), 400, 'NoStructureColumn'],
    ['RDF that is not a dataset', () => fetch(app.url + '/dataset', { method: 'POST', headers: { 'Content-Type': 'application/rdf+xml' }, body: readFileSync(sharedData('ambit', 'feature.rdf'), 'utf8') }), 400, 'NotADatasetRepresentation'],
    ['an unsupported media type', () => fetch(app.url + '/dataset', { method: 'POST', headers: { 'Content-Type': 'image/png' }, body: 'x' }), 400, 'UnsupportedMediaType'],
    ['feature_uris[] naming a feature not in the dataset', () => fetch(`${multi}?feature_uris[]=${encodeURIComponent(app.url + '/feature/9999')}`), 400, 'FeatureNotInDataset'],
    ['a dataset that does not exist', () => fetch(app.url + '/dataset/9999'), 404, 'NotFound'],
    ['PUT to a dataset that does not exist', () => fetch(app.url + '/dataset/9999', { method: 'PUT', headers: { 'Content-Type': 'text/csv' }, body: 'SMILES\nCCO\n' }), 404, 'NotFound'],
  ];
  for (const [what, request, status, code] of bad) {
    it(`answers ${status} ${code} for ${what}`, async () => {
      const res = await request();
      expect(res.status).to.equal(status);
      expect(await res.text()).to.contain(code);
    });
  }
  it('appends with PUT, replaces metadata, deletes the dataset but not its compounds', async () => {
    const up = await uploadDataset(app, 'SMILES,regression\nCCO,2.5\n', 'text/csv', multi, 'PUT');
    expect(up.status, up.body).to.equal(200);
    expect(await lines(multi, 'text/csv')).to.have.length(8);
    expect(await lines(multi + '/features')).to.have.length(6);
    const meta = `<${multi}> <http://purl.org/dc/elements/1.1/title> "Renamed" .`;
    expect((await fetch(multi + '/metadata', { method: 'PUT', headers: { 'Content-Type': 'application/n-triples' }, body: meta })).status).to.equal(200);
    expect(await (await fetch(multi + '/metadata', { headers: { Accept: 'application/n-triples' } })).text()).to.contain('"Renamed"');
    const compounds = await lines(multi + '/compounds');
    expect((await fetch(multi, { method: 'DELETE' })).status).to.equal(200);
    expect((await fetch(multi)).status).to.equal(404);
    expect(await app.deps.store.hasGraph(compounds[0]!)).to.equal(true);
    expect(await lines(app.url + '/dataset')).to.not.include(multi);
  });
});
