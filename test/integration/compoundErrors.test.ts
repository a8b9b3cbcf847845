// Bad input gets a clear error and loses nothing (SPEC §7): each bad body answers 400
// with a report saying what was wrong, and no compound is created or changed.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { startApp, type TestApp } from '../helpers/app.ts';
import { bodyOf, createCompound, postStructure, SMILES } from '../helpers/compounds.ts';
import { sharedData } from '../helpers/data.ts';

const BROKEN_COUNTS = '\n  broken\n\n  x  y  0  0  0  0  0  0  0  0999 V2000\n    0.0000    0.0000    0.0000 C   0  0\nM  END\n';
const SHORT_MOLFILE = '\n  short\n\n  3  2  0  0  0  0  0  0  0  0999 V2000\n    0.0000    0.0000    0.0000 C   0  0\nM  END\n';

const CASES: Array<[string, string | Buffer, string, RegExp]> = [
  ['empty body', '', SMILES, /empty input/],
  ['binary junk', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0xff, 0xfe, 0x10]), SMILES, /binary/],
  ['10 MB of SMILES', 'C'.repeat(10 * 1024 * 1024), SMILES, /longer than the limit/],
  ['800-atom chain (past the toolkit limit)', 'C'.repeat(800), SMILES, /800 atoms is more than the limit of 500/],
  ['pentavalent carbon', 'C(C)(C)(C)(C)C', SMILES, /valence for atom # 0 C, 5, is greater than permitted/],
  ['unclosed ring', 'C1CCC', SMILES, /unclosed ring/],
  ['broken molfile counts line', BROKEN_COUNTS, 'chemical/x-mdl-molfile', /line 4 \(counts line\) is malformed/],
  ['molfile shorter than its counts line', SHORT_MOLFILE, 'chemical/x-mdl-molfile', /announces 3 atoms and 2 bonds/],
  ['InChI that does not parse', 'InChI=1S/C3H7NO2/c1-2(4)3(5)6/h2H,4H2,1H3,(H,5,6)/t2-/m0/s1/xyz!!', 'chemical/x-inchi', /InChI: cannot be read/],
  ['InChI without prefix', 'C3H7NO2', 'chemical/x-inchi', /does not start with "InChI="/],
  ['CML that is not XML', 'molecule C 0 0', 'chemical/x-cml', /CML: not XML/],
  ['unsupported Content-Type', 'CCO', 'text/html', /unsupported Content-Type "text\/html"/],
  ['no Content-Type', Buffer.from('CCO'), '', /unsupported Content-Type "\(none\)"/],
  ['XYZ as a compound', '3\nwater\nO 0 0 0\nH 0 0 1\nH 0 1 0\n', 'chemical/x-xyz', /XYZ carries no bonds/],
];

describe('compounds: bad input', function () {
  this.timeout(60_000);
  let app: TestApp;
  let ethanol: string;
  const count = async () => Number((await fetch(`${app.url}/compound`, { headers: { Accept: 'text/uri-list' } })).headers.get('x-total-count'));
  before(async () => {
    app = await startApp();
    ethanol = await createCompound(app.url, 'CCO');
  });
  after(async () => { await app.close(); });

  for (const [what, body, type, message] of CASES) {
    it(`${what}: 400 with a report, nothing created or changed`, async () => {
      const before = await count();
      const headers: Record<string, string> = { Accept: 'text/plain' };
      if (type) headers['Content-Type'] = type;
      const res = await fetch(`${app.url}/compound`, { method: 'POST', headers, body: bodyOf(body) });
      expect(res.status).to.equal(400);
      expect(await res.text()).to.match(message);
      const put = await fetch(ethanol, { method: 'PUT', headers, body: bodyOf(body) });
      expect(put.status).to.equal(400);
      expect(await count()).to.equal(before);
      expect(await (await fetch(ethanol, { headers: { Accept: SMILES } })).text()).to.equal('CCO\n');
    });
  }

  it('a multi-record SD file answers 400 pointing to /dataset', async () => {
    const res = await postStructure(app.url, readFileSync(sharedData('ambit', 'input.sdf')), 'chemical/x-mdl-sdfile');
    expect(res.status).to.equal(400);
    expect(await res.text()).to.match(/7 records.*\/dataset/);
  });

  it('the error report is RDF by default, with the InvalidStructure code', async () => {
    const res = await postStructure(app.url, 'CC(C)(C)(C)(C)C');
    expect(res.status).to.equal(400);
    const text = await fetch(`${app.url}/compound`, { method: 'POST', headers: { 'Content-Type': SMILES }, body: 'C(C)(C)(C)(C)C' }).then((r) => r.text());
    expect(text).to.match(/ot:ErrorReport/).and.to.match(/errors.owl#InvalidStructure/);
  });

  it('a body over BODY_LIMIT answers 413 and creates nothing', async () => {
    const small = await startApp({ bodyLimit: 1024 });
    try {
      const res = await postStructure(small.url, 'C'.repeat(4096));
      expect(res.status).to.equal(413);
      expect(Number((await fetch(`${small.url}/compound`, { headers: { Accept: 'text/uri-list' } })).headers.get('x-total-count'))).to.equal(0);
    } finally {
      await small.close();
    }
  });
});
