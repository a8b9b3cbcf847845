import { expect } from 'chai';
import { DataFactory } from 'n3';
import { startApp, type TestApp } from '../helpers/app.ts';
import { OT, RDF } from '../../src/rdf/vocab.ts';

const { namedNode, literal, quad, blankNode } = DataFactory;

const STRUCTURES = ['CC(=O)Oc1ccccc1C(=O)O', 'OC(=O)c1ccccc1O', 'c1ccccc1', 'O=[N+]([O-])c1ccc(Cl)cc1', 'CCO', 'CCCCCC(=O)O'];

describe('structure search on /compound', () => {
  let app: TestApp;
  const uri = (i: number) => `${app.url}/compound/${i + 1}`;
  const get = (query: string, accept = 'text/uri-list') => fetch(`${app.url}/compound?${query}`, { headers: { Accept: accept } });
  const uris = async (res: Response) => (await res.text()).split('\r\n').filter(Boolean);

  before(async () => {
    app = await startApp({ searchTimeoutMs: 3000 });
    STRUCTURES.forEach((s, i) => app.deps.search.indexCompound(uri(i), s));
    // Dataset entries naming aspirin and the CAS number of ethanol.
    const entry = namedNode(`${app.url}/dataset/1/entry/1`);
    const value = blankNode();
    await app.deps.store.replaceGraph(`${app.url}/dataset/1`, [
      quad(namedNode(`${app.url}/dataset/1`), OT.dataEntry, entry),
      quad(entry, OT.compound, namedNode(uri(0))),
      quad(entry, OT.values, value),
      quad(value, OT.value, literal('Aspirin')),
      quad(namedNode(uri(0)), RDF.type, OT.Compound),
      // The compact layout of the datasets service: the value hangs from the entry directly.
      quad(namedNode(`${app.url}/dataset/1/entry/2`), OT.compound, namedNode(uri(4))),
      quad(namedNode(`${app.url}/dataset/1/entry/2`), namedNode(`${app.url}/feature/7`), literal('64-17-5')),
    ]);
  });
  after(async () => { await app.close(); });

  const exact: Array<[string, number[]]> = [
    ['search=' + encodeURIComponent('O=C(O)c1ccccc1OC(C)=O'), [0]],
    ['search=BSYNRYMUTXBXSQ-UHFFFAOYSA-N', []],
    ['search=aspirin', [0]],
    ['search=64-17-5', [4]],
    ['search=' + encodeURIComponent('OCC'), [4]],
    ['search=nothing-like-this', []],
  ];
  for (const [query, expected] of exact) {
    it(`GET /compound?${query} finds ${JSON.stringify(expected)}`, async () => {
      const res = await get(query);
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.match(/^text\/uri-list/);
      expect(await uris(res)).to.deep.equal(expected.map(uri));
    });
  }

  it('similarity hits are sorted and carry their similarity in CSV', async () => {
    const res = await get('similarity=' + encodeURIComponent('OC(=O)c1ccccc1O') + '&threshold=0.3', 'text/csv');
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^text\/csv/);
    const rows = (await res.text()).trim().split('\r\n');
    expect(rows[0]).to.equal('compound,similarity');
    expect(rows[1]).to.equal(`${uri(1)},1.0000`);
    expect(rows.length).to.be.greaterThan(2);
    const values = rows.slice(1).map((r) => Number(r.split(',')[1]));
    expect([...values].sort((a, b) => b - a)).to.deep.equal(values);
  });

  it('similarity in RDF gives each hit a value of the similarity feature', async () => {
    const res = await get('similarity=' + encodeURIComponent('OC(=O)c1ccccc1O') + '&threshold=0.3', 'text/turtle');
    expect(res.status).to.equal(200);
    const body = await res.text();
    expect(body).to.contain(`<${app.url}/feature/similarity>`);
    expect(body).to.match(/ot:value "1\.0000"\^\^xsd:double|ot:value 1\.0000E0|"1\.0000"\^\^/);
    expect(body).to.contain(`<${uri(1)}>`);
  });

  it('the similarity feature resolves', async () => {
    const res = await fetch(`${app.url}/feature/similarity`, { headers: { Accept: 'text/turtle' } });
    expect(res.status).to.equal(200);
    expect(await res.text()).to.match(/ot:NumericFeature/);
  });

  it('substructure by SMARTS and by SMILES, paged', async () => {
    expect(await uris(await get('smarts=' + encodeURIComponent('C(=O)[OH]')))).to.deep.equal([0, 1, 5].map(uri));
    expect(await uris(await get('substructure=' + encodeURIComponent('C1=CC=CC=C1')))).to.deep.equal([0, 1, 2, 3].map(uri));
    expect(await uris(await get('substructure=c1ccccc1&page=1&pagesize=2'))).to.deep.equal([2, 3].map(uri));
    expect(await uris(await get('substructure=c1ccccc1&max=3&pagesize=2&page=1'))).to.deep.equal([2].map(uri));
    expect(await uris(await get('smarts=' + encodeURIComponent('[N+](=O)[O-]')))).to.deep.equal([3].map(uri));
  });

  it('RDF is the default representation of a result', async () => {
    const res = await get('smarts=c1ccccc1', '');
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^application\/rdf\+xml/);
    expect(await res.text()).to.contain(uri(2));
  });

  const bad: Array<[string, number, RegExp]> = [
    ['similarity=' + encodeURIComponent('C1CC(C'), 400, /position/],
    ['similarity=CCO&threshold=0', 400, /threshold must be a number in \(0, 1\], got "0"/],
    ['similarity=CCO&threshold=1.5', 400, /threshold/],
    ['similarity=CCO&threshold=abc', 400, /threshold/],
    ['smarts=' + encodeURIComponent('[C;X4'), 400, /SMARTS.*position 5/],
    ['substructure=' + encodeURIComponent('C(C)(C)(C)(C)C'), 400, /valence/],
    ['smarts=', 400, /empty/],
    ['smarts=C&similarity=C', 400, /give one of/],
    ['smarts=C&pagesize=0', 400, /pagesize/],
  ];
  for (const [query, status, message] of bad) {
    it(`GET /compound?${query} answers ${status}`, async () => {
      const res = await get(query, 'text/plain');
      expect(res.status).to.equal(status);
      expect(await res.text()).to.match(message);
    });
  }

  it('a pathological SMARTS is cut off with 503 and a report', async () => {
    const c60 = 'c12c3c4c5c1c1c6c7c2c2c8c3c3c9c4c4c%10c5c5c1c1c6c6c%11c7c2c2c7c8c3c3c8c9c4c4c9c%10c5c5c1c1c6c6c%11c2c2c7c3c3c8c4c4c9c5c1c1c6c2c3c41';
    app.deps.search.indexCompound(`${app.url}/compound/60`, c60);
    try {
      const res = await get('smarts=' + encodeURIComponent('*' + '~*'.repeat(24) + '~[!#6]'), 'application/rdf+xml');
      expect(res.status).to.equal(503);
      const body = await res.text();
      expect(body).to.contain('ot:ErrorReport');
      expect(body).to.contain('QueryTimeout');
    } finally {
      app.deps.search.removeCompound(`${app.url}/compound/60`);
    }
  });
});

describe('structure search over compounds posted through the API', () => {
  let app: TestApp;
  const post = async (smiles: string) => {
    const res = await fetch(`${app.url}/compound`, { method: 'POST', headers: { 'Content-Type': 'chemical/x-daylight-smiles', Accept: 'text/uri-list' }, body: smiles });
    expect(res.status).to.equal(200);
    return (await res.text()).trim();
  };
  const find = async (query: string) => {
    const res = await fetch(`${app.url}/compound?${query}`, { headers: { Accept: 'text/uri-list' } });
    expect(res.status).to.equal(200);
    return (await res.text()).split('\r\n').filter(Boolean);
  };

  before(async () => { app = await startApp(); });
  after(async () => { await app.close(); });

  it('finds created, replaced and deleted compounds as they change, and after a restart', async () => {
    const phenol = await post('Oc1ccccc1');
    const acid = await post('CC(=O)O');
    expect(await find('search=' + encodeURIComponent('c1ccccc1O'))).to.deep.equal([phenol]);
    expect(await find('smarts=' + encodeURIComponent('C(=O)[OH]'))).to.deep.equal([acid]);
    // A PUT of another molecule makes that molecule's compound; the old one stays (docs/integrity.md).
    const put = await fetch(acid, { method: 'PUT', headers: { 'Content-Type': 'chemical/x-daylight-smiles', Accept: 'text/uri-list' }, body: 'CCC(=O)O' });
    expect(put.status).to.equal(200);
    const propionic = (await put.text()).trim();
    expect(await find('search=' + encodeURIComponent('OC(=O)CC'))).to.deep.equal([propionic]);
    expect(await find('search=CC(%3DO)O')).to.deep.equal([acid]);
    expect((await fetch(acid, { method: 'DELETE' })).status).to.equal(200);
    expect(await find('search=CC(%3DO)O')).to.deep.equal([]);
    expect((await fetch(phenol, { method: 'DELETE' })).status).to.equal(200);
    expect(await find('substructure=c1ccccc1')).to.deep.equal([]);
    // A restart rebuilds the index from its file, reconciled with the stored compounds.
    const dataDir = app.dataDir;
    await app.close({ keepData: true });
    app = await startApp({}, dataDir);
    const again = propionic.replace(/^http:\/\/[^/]+/, app.url);
    expect(await find('smarts=' + encodeURIComponent('C(=O)[OH]'))).to.deep.equal([again]);
  });
});
