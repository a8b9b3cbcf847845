import { expect } from 'chai';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { startApp, type TestApp } from '../helpers/app.ts';
import { remoteStore } from '../helpers/engines.ts';
import { createCompound, postStructure, SMILES } from '../helpers/compounds.ts';
import { sleep } from '../helpers/tasks.ts';

const MOLFILE = 'chemical/x-mdl-molfile';
const URIS = { Accept: 'text/uri-list' };

describe('conformers over HTTP (SPEC §4.2)', function () {
  this.timeout(180_000);
  let app: TestApp;
  let alanine: string;
  let molfile: string;
  const head = async (uri: string) => fetch(`${uri}/conformer/`, { method: 'HEAD' });
  before(async () => {
    app = await startApp();
    alanine = await createCompound(app.url, 'C[C@H](N)C(=O)O');
    molfile = await (await fetch(alanine, { headers: { Accept: MOLFILE } })).text();
  });
  after(async () => { await app.close(); });

  it('a new compound has no conformers: HEAD answers 200 with count 0', async () => {
    const res = await head(alanine);
    expect(res.status).to.equal(200);
    expect(res.headers.get('x-total-count')).to.equal('0');
    expect((await head(`${app.url}/compound/999999`)).status).to.equal(404);
  });

  it('creates, lists, gets, updates and deletes conformers', async () => {
    const created = await postStructure(app.url, molfile, MOLFILE, new URL(alanine).pathname + '/conformer');
    expect(created.status).to.equal(200);
    const first = (await created.text()).trim();
    expect(first).to.equal(`${alanine}/conformer/1`);
    const second = (await (await postStructure(app.url, 'OC(=O)[C@@H](N)C', SMILES, new URL(alanine).pathname + '/conformer')).text()).trim();
    expect(second).to.equal(`${alanine}/conformer/2`);

    const h = await head(alanine);
    expect(h.headers.get('x-total-count')).to.equal('2');
    expect(h.headers.get('link')).to.equal(`<${first}>; rel="item", <${second}>; rel="item"`);

    const all = await fetch(`${alanine}/conformer/`);
    expect(all.headers.get('content-type')).to.equal('chemical/x-mdl-sdfile');
    expect((await all.text()).match(/^\$\$\$\$$/gm)).to.have.length(2);
    expect(await (await fetch(`${alanine}/conformer/`, { headers: URIS })).text()).to.equal(`${first}\r\n${second}\r\n`);

    expect(await (await fetch(first, { headers: { Accept: SMILES } })).text()).to.equal('C[C@H](N)C(=O)O\n');
    const png = await fetch(`${first}/image`);
    expect(png.headers.get('content-type')).to.equal('image/png');

    const put = await fetch(first, { method: 'PUT', headers: { 'Content-Type': MOLFILE }, body: molfile });
    expect(put.status).to.equal(200);
    expect((await put.text()).trim()).to.equal(first);

    expect((await fetch(first, { method: 'DELETE' })).status).to.equal(200);
    expect((await fetch(first)).status).to.equal(404);
    expect((await head(alanine)).headers.get('x-total-count')).to.equal('1');
    expect((await fetch(`${alanine}/conformer/`, { method: 'DELETE' })).status).to.equal(200);
    expect((await head(alanine)).headers.get('x-total-count')).to.equal('0');
    // The embedded store keeps structure files on disk; the remote one keeps them as graphs.
    if (!remoteStore) expect(readdirSync(path.join(app.dataDir, 'structures')).flatMap((d) => readdirSync(path.join(app.dataDir, 'structures', d)))).to.deep.equal([]);
  });

  it('a conformer of a different molecule (or its mirror image) is 400 and changes nothing', async () => {
    for (const smiles of ['CCO', 'C[C@@H](N)C(=O)O']) {
      const res = await postStructure(app.url, smiles, SMILES, new URL(alanine).pathname + '/conformer');
      expect(res.status).to.equal(400);
      expect(await res.text()).to.match(/different molecule/);
    }
    expect((await head(alanine)).headers.get('x-total-count')).to.equal('0');
  });

  it('generate=N makes distinct 3D conformers as a task, stereo kept', async () => {
    const pathname = new URL(alanine).pathname;
    for (const bad of ['0', '21', 'x']) {
      const res = await fetch(`${app.url}${pathname}/conformer`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: `generate=${bad}` });
      expect(res.status, bad).to.equal(400);
    }
    const started = await fetch(`${app.url}${pathname}/conformer`, {
      method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...URIS }, body: 'generate=2',
    });
    expect([200, 202]).to.include(started.status);
    let task = await fetch((await started.text()).trim(), { headers: URIS });
    for (let i = 0; i < 600 && task.status === 202; i++) {
      await sleep(250);
      task = await fetch(task.url, { headers: URIS });
    }
    expect(task.status).to.equal(200);
    const made = (await task.text()).trim().split(/\r?\n/).sort();
    expect(made.length).to.be.within(1, 2);
    expect(made[0]).to.equal(`${alanine}/conformer/3`, 'numbers of deleted conformers are not given out again');
    const xyz = await (await fetch(made[0]!, { headers: { Accept: 'chemical/x-xyz' } })).text();
    expect(xyz.split('\n')[0]).to.equal('13');
    expect(xyz.split('\n').slice(2, 15).some((l) => Math.abs(Number(l.trim().split(/\s+/)[3])) > 0.1)).to.equal(true);
    expect(await (await fetch(made[0]!, { headers: { Accept: 'chemical/x-inchi' } })).text()).to.match(/\/t2-\/m0\/s1/);
    expect(await (await fetch(alanine, { headers: { Accept: MOLFILE } })).text()).to.match(/3D/);
  });

  it('after a restart, a compound\'s conformer is still its default structure', async () => {
    const amide = await createCompound(app.url, 'CC(N)=O');
    const lines = (await (await fetch(amide, { headers: { Accept: MOLFILE } })).text()).split('\n');
    // The same molecule with its first atom moved (V2000 atom line: x in the first 10 columns).
    lines[4] = '    9.8765' + lines[4]!.slice(10);
    expect((await postStructure(app.url, lines.join('\n'), MOLFILE, new URL(amide).pathname + '/conformer')).status).to.equal(200);
    const { dataDir, url } = app;
    await app.close({ keepData: true });
    app = await startApp({ baseUrl: url }, dataDir);
    const restarted = amide.replace(url, app.origin);
    const res = await fetch(restarted, { headers: { Accept: MOLFILE } });
    expect(res.status).to.equal(200);
    expect((await res.text()).split('\n')[4]).to.match(/^\s+9\.8765 /);
    expect((await head(restarted)).headers.get('x-total-count')).to.equal('1');
  });
});
