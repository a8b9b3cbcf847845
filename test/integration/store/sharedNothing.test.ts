// Two API processes on one remote store, each with its own DATA_DIR and nothing else
// shared (docs/engines.md): a compound created through one, with a structure file (a
// molfile with coordinates), is read through the other in full, and is found by the other's
// search index, rebuilt from the store at start.
import { expect } from 'chai';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { releaseVirtuoso, virtuosoFor } from '../../helpers/engines.ts';

// Ethanol with 2D coordinates written by hand: the compound keeps this file as given.
const MOLFILE = `ethanol
  hand-made

  3  2  0  0  0  0  0  0  0  0999 V2000
    0.0000    0.0000    0.0000 C   0  0  0  0  0  0  0  0  0  0  0  0
    1.2990    0.7500    0.0000 C   0  0  0  0  0  0  0  0  0  0  0  0
    2.5981    0.0000    0.0000 O   0  0  0  0  0  0  0  0  0  0  0  0
  1  2  1  0
  2  3  1  0
M  END
`;

describe('nothing shared but the store', function () {
  this.timeout(120_000);
  let first: TestApp;
  let second: TestApp | undefined;
  before(async () => {
    const virtuoso = await virtuosoFor('nothing shared');
    first = await startApp({ sparqlEndpoint: virtuoso.endpoint, sparqlGraphStore: virtuoso.graphStore });
  });
  after(async () => {
    await second?.close();
    await first?.close();
    await releaseVirtuoso('nothing shared');
  });

  it('a compound made through one process is read, with its structure file, through another', async () => {
    const made = await fetch(first.url + '/compound', { method: 'POST', headers: { 'Content-Type': 'chemical/x-mdl-molfile', Accept: 'text/uri-list' }, body: MOLFILE });
    expect(made.status).to.equal(200);
    const uri = (await made.text()).trim();
    // The second process answers under the same public base, from a DATA_DIR of its own.
    second = await startApp({ sparqlEndpoint: first.deps.config.sparqlEndpoint, sparqlGraphStore: first.deps.config.sparqlGraphStore, baseUrl: first.url });
    const local = uri.replace(first.url, second.origin);
    const mol = await fetch(local, { headers: { Accept: 'chemical/x-mdl-molfile' } });
    expect(mol.status).to.equal(200);
    expect(mol.headers.get('content-type')).to.match(/^chemical\/x-mdl-molfile/);
    const text = await mol.text();
    // The coordinates as written: the file itself, not a layout computed from the SMILES.
    expect(text).to.contain('    1.2990    0.7500    0.0000 C').and.contain('    2.5981    0.0000    0.0000 O');
    const smiles = await fetch(local, { headers: { Accept: 'chemical/x-daylight-smiles' } });
    expect((await smiles.text()).trim()).to.equal('CCO');
    const found = await fetch(`${second.origin}/compound?search=CCO`, { headers: { Accept: 'text/uri-list' } });
    expect(found.status).to.equal(200);
    expect((await found.text()).trim()).to.equal(uri);
  });
});
