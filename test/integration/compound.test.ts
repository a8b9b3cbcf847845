import { expect } from 'chai';
import { startApp, type TestApp } from '../helpers/app.ts';
import { createCompound, pngSize, postStructure, PNG_MAGIC, SMILES } from '../helpers/compounds.ts';

describe('compounds over HTTP (SPEC §4.2)', function () {
  this.timeout(60_000);
  let app: TestApp;
  let alanine: string;
  before(async () => {
    app = await startApp();
    alanine = await createCompound(app.url, 'C[C@H](N)C(=O)O');
  });
  after(async () => { await app.close(); });

  it('POST answers 200 with the new URI as text/uri-list', async () => {
    const res = await postStructure(app.url, 'c1ccccc1O');
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^text\/uri-list/);
    expect((await res.text()).trim()).to.match(new RegExp(`^${app.url}/compound/\\d+$`));
  });

  it('one molecule is one compound, whatever SMILES or format it is posted in', async () => {
    expect(await createCompound(app.url, 'OC(=O)[C@@H](N)C')).to.equal(alanine);
    const res = await postStructure(app.url, 'InChI=1S/C3H7NO2/c1-2(4)3(5)6/h2H,4H2,1H3,(H,5,6)/t2-/m0/s1', 'chemical/x-inchi');
    expect((await res.text()).trim()).to.equal(alanine);
    expect(await createCompound(app.url, 'C[C@@H](N)C(=O)O')).to.not.equal(alanine);
  });

  const formats: Array<[string, string, RegExp]> = [
    ['chemical/x-daylight-smiles', 'chemical/x-daylight-smiles', /^C\[C@H\]\(N\)C\(=O\)O\n$/],
    ['chemical/x-inchi', 'chemical/x-inchi', /^InChI=1S\/C3H7NO2\/.*\/t2-\/m0\/s1\n$/],
    ['chemical/x-inchikey', 'chemical/x-inchikey', /^QNAYBMKLOCPYGJ-REOHCLBHSA-N\n$/],
    ['chemical/x-mdl-molfile', 'chemical/x-mdl-molfile', /V2000[\s\S]*M {2}END\n$/],
    ['chemical/x-mdl-sdfile', 'chemical/x-mdl-sdfile', /M {2}END\n> <SMILES>\nC\[C@H\]\(N\)C\(=O\)O\n[\s\S]*> <InChIKey>\nQNAYBMKLOCPYGJ-REOHCLBHSA-N[\s\S]*\$\$\$\$\n$/],
    ['chemical/x-mol2', 'chemical/x-mol2', /@<TRIPOS>MOLECULE[\s\S]*@<TRIPOS>BOND/],
    ['chemical/x-cml', 'chemical/x-cml', /<cml>[\s\S]*<atomParity/],
    ['chemical/x-chemdraw', 'chemical/x-chemdraw', /<CDXML/],
    ['image/svg+xml', 'image/svg+xml', /<svg[\s\S]*<\/svg>/],
    ['text/uri-list', 'text/uri-list', /\/compound\/1\r\n$/],
    ['application/rdf+xml', 'application/rdf+xml', /ot:Compound[\s\S]*compound-inchikey[\s\S]*QNAYBMKLOCPYGJ-REOHCLBHSA-N/],
    ['text/turtle', 'text/turtle', /ot:Compound/],
    ['application/x-unknown', 'chemical/x-mdl-sdfile', /\$\$\$\$\n$/],
    ['', 'chemical/x-mdl-sdfile', /\$\$\$\$\n$/],
  ];
  for (const [accept, type, body] of formats) {
    it(`GET with Accept "${accept}" answers ${type}`, async () => {
      const res = await fetch(alanine, { headers: accept ? { Accept: accept } : {} });
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.match(new RegExp('^' + type.replace(/[+]/g, '\\+')));
      expect(await res.text()).to.match(body);
    });
  }

  it('?media= overrides Accept', async () => {
    const res = await fetch(`${alanine}?media=${encodeURIComponent(SMILES)}`, { headers: { Accept: 'chemical/x-mdl-molfile' } });
    expect(res.headers.get('content-type')).to.equal(SMILES);
  });

  it('serves PNG depictions sized by w and h, and /image serves only PNG', async () => {
    const res = await fetch(`${alanine}?w=200&h=120`, { headers: { Accept: 'image/png' } });
    expect(res.headers.get('content-type')).to.equal('image/png');
    const png = Buffer.from(await res.arrayBuffer());
    expect(png.subarray(0, 4)).to.deep.equal(PNG_MAGIC);
    expect(pngSize(png)).to.deep.equal({ w: 200, h: 120 });
    const image = await fetch(`${alanine}/image`, { headers: { Accept: 'chemical/x-mdl-molfile' } });
    expect(image.headers.get('content-type')).to.equal('image/png');
    expect(pngSize(Buffer.from(await image.arrayBuffer()))).to.deep.equal({ w: 300, h: 300 });
    expect((await fetch(`${alanine}/image?w=5`)).status).to.equal(400);
  });

  it('lists compounds with paging and never truncates silently', async () => {
    const all = (await (await fetch(`${app.url}/compound`, { headers: { Accept: 'text/uri-list' } })).text()).trim().split(/\r\n/);
    expect(all.length).to.be.at.least(3);
    const res = await fetch(`${app.url}/compound?pagesize=2`, { headers: { Accept: 'text/uri-list' } });
    expect(res.headers.get('x-total-count')).to.equal(String(all.length));
    expect(res.headers.get('link')).to.match(/page=1.*rel="next"/);
    expect((await res.text()).trim().split(/\r\n/)).to.deep.equal(all.slice(0, 2));
    const page1 = await (await fetch(`${app.url}/compound?pagesize=2&page=1`, { headers: { Accept: 'text/uri-list' } })).text();
    expect(page1.trim().split(/\r\n/)).to.deep.equal(all.slice(2, 4));
    const rdf = await fetch(`${app.url}/compound`);
    expect(rdf.headers.get('content-type')).to.match(/^application\/rdf\+xml/);
    expect((await fetch(`${app.url}/compound?pagesize=0`)).status).to.equal(400);
  });

  it('PUT of another molecule answers its compound and leaves this one; DELETE removes the compound', async () => {
    const uri = await createCompound(app.url, 'CCCCCl');
    const put = await fetch(uri, { method: 'PUT', headers: { 'Content-Type': SMILES, Accept: 'text/uri-list' }, body: 'CCCCBr' });
    expect(put.status).to.equal(200);
    const bromide = (await put.text()).trim();
    expect(bromide).to.not.equal(uri);
    expect(await (await fetch(bromide, { headers: { Accept: SMILES } })).text()).to.equal('CCCCBr\n');
    expect(await (await fetch(uri, { headers: { Accept: SMILES } })).text()).to.equal('CCCCCl\n');
    expect(await createCompound(app.url, 'BrCCCC')).to.equal(bromide);
    const same = await fetch(uri, { method: 'PUT', headers: { 'Content-Type': SMILES, Accept: 'text/uri-list' }, body: 'ClCCCC' });
    expect(same.status).to.equal(200);
    expect((await same.text()).trim()).to.equal(uri);
    expect((await fetch(uri, { method: 'DELETE' })).status).to.equal(200);
    expect((await fetch(uri)).status).to.equal(404);
    expect((await fetch(uri, { method: 'DELETE' })).status).to.equal(404);
    expect(await createCompound(app.url, 'CCCCCl')).to.not.equal(uri);
  });

  it('answers 404 for unknown compounds', async () => {
    for (const path of ['/compound/999999', '/compound/abc', '/compound/999999/conformer/', '/compound/999999/image']) {
      const res = await fetch(app.url + path);
      expect(res.status, path).to.equal(404);
    }
    expect((await fetch(`${app.url}/compound/999999`, { method: 'PUT', headers: { 'Content-Type': SMILES }, body: 'CC' })).status).to.equal(404);
  });
});
