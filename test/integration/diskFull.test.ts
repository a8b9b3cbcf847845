// A full disk (DATA_DIR on a small tmpfs, filled during writes): writes answer 507 with a
// report, reads go on, nothing acknowledged is lost, and writes work again by themselves
// once there is room. Needs root to mount the tmpfs (CI runs as root).
import { expect } from 'chai';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { fill, mountTmpfs, unmountTmpfs } from '../../scripts/engines/tmpfs.ts';
import { startApp, type TestApp } from '../helpers/app.ts';
import { describeEmbedded } from '../helpers/engines.ts';

// Acetaldehyde with 2D coordinates: stored as a structure file.
const MOLFILE = '\n  test\n\n  3  2  0  0  0  0  0  0  0  0999 V2000\n    2.3030   -0.6656    0.0000 C   0  0  0  0  0  0  0  0  0  0  0  0\n    1.1515    0.0000    0.0000 C   0  0  0  0  0  0  0  0  0  0  0  0\n    0.0000   -0.6656    0.0000 O   0  0  0  0  0  0  0  0  0  0  0  0\n  1  2  1  0  0  0  0\n  2  3  2  0  0  0  0\nM  END\n';

/** An ontology of 600 classes (about 60 KB of triples). */
function postOntology(app: TestApp): Promise<Response> {
  const classes = Array.from({ length: 600 }, (_, i) => `<http://example.org/big#C${i}> a <http://www.w3.org/2002/07/owl#Class> ; <http://www.w3.org/2000/01/rdf-schema#label> "class number ${i} of a large ontology" .`).join('\n');
  return fetch(`${app.url}/ontology`, { method: 'POST', headers: { 'Content-Type': 'text/turtle', Accept: 'text/uri-list' }, body: classes });
}

// Embedded engine only: the journal and snapshots on a full DATA_DIR; a remote store keeps no journal here.
describeEmbedded('disk full', function () {
  this.timeout(120_000);
  let mount: string;
  let app: TestApp | undefined;

  before(function () {
    try {
      mount = mountTmpfs('24m', 'opentox-full-');
    } catch (e) {
      if (process.env.CI) throw new Error(`cannot mount a tmpfs for the disk-full test: ${(e as Error).message}`, { cause: e });
      this.skip();
    }
  });
  after(async () => {
    await app?.close({ keepData: true });
    if (mount) unmountTmpfs(mount);
  });

  const post = (smiles: string) => fetch(app!.url + '/compound', {
    method: 'POST', headers: { 'Content-Type': 'chemical/x-daylight-smiles', Accept: 'text/uri-list' }, body: smiles,
  });

  it('refuses writes with 507 while full, serves reads, and writes again once there is room; nothing acknowledged is lost', async () => {
    const dataDir = path.join(mount, 'data');
    app = await startApp({}, dataDir);
    const first = await post('CCO');
    expect(first.status).to.be.oneOf([200, 201]);
    const ethanol = (await first.text()).trim();

    const filler = path.join(mount, 'filler');
    fill(filler);
    // A write the journal cannot take (larger than what is left of its last page) ...
    const ontology = (await postOntology(app)).status;
    // ... and a structure file that cannot be written (a molfile keeps its coordinates).
    const refused = await fetch(app.url + '/compound', {
      method: 'POST', headers: { 'Content-Type': 'chemical/x-mdl-molfile', Accept: 'text/plain' }, body: MOLFILE,
    });
    expect(ontology).to.equal(507);
    expect(refused.status).to.equal(507);
    expect(await refused.text()).to.match(/^507 InsufficientStorage: /);

    const read = await fetch(ethanol, { headers: { Accept: 'chemical/x-daylight-smiles' } });
    expect(read.status).to.equal(200);
    expect((await read.text()).trim()).to.equal('CCO');

    rmSync(filler);
    const stored = await postOntology(app);
    expect(stored.status).to.be.oneOf([200, 201]);
    const ontologyUri = (await stored.text()).trim();
    const again = await fetch(app.url + '/compound', {
      method: 'POST', headers: { 'Content-Type': 'chemical/x-mdl-molfile', Accept: 'text/uri-list' }, body: MOLFILE,
    });
    expect(again.status).to.be.oneOf([200, 201]);
    const phenol = (await again.text()).trim();

    await app.close({ keepData: true });
    app = await startApp({ baseUrl: app.url }, dataDir);
    const big = await fetch(ontologyUri.replace(/^http:\/\/127\.0\.0\.1:\d+/, app.origin), { headers: { Accept: 'application/n-triples' } });
    expect(big.status).to.equal(200);
    expect((await big.text()).match(/#C\d+>/g)).to.have.length(1200);
    for (const [uri, smiles] of [[ethanol, 'CCO'], [phenol, 'CC=O']]) {
      const res = await fetch(uri!.replace(/^http:\/\/127\.0\.0\.1:\d+/, app.origin), { headers: { Accept: 'chemical/x-daylight-smiles' } });
      expect(res.status, uri).to.equal(200);
      expect((await res.text()).trim()).to.equal(smiles);
    }
  });

  it('writes the final state of a job that ends while the disk is full once there is room, so the task does not stay Running', async () => {
    await app?.close({ keepData: true });
    const dataDir = path.join(mount, 'jobs');
    app = await startApp({}, dataDir);
    let release!: () => void;
    const gate = new Promise<void>((r) => { release = r; });
    // Results long enough that the final write needs more than the journal file's last page.
    const result = Array.from({ length: 200 }, (_, i) => `${app!.url}/dataset/result-of-a-gated-job-number-${i}`);
    app.deps.tasks.define<Record<string, never>>({ kind: 'test-gated', idempotent: false, run: async () => { await gate; return result; } });
    const task = (await app.deps.tasks.submit('test-gated', {}, { title: 'gated', creator: `${app.url}/algorithm/x` })).uri;
    const status = async () => {
      const res = await fetch(task, { headers: { Accept: 'text/uri-list' } });
      await res.arrayBuffer();
      return res.status;
    };
    // Running (its start is written) before the disk fills.
    for (let i = 0; i < 100 && (await app.deps.tasks.get(task))?.status !== 'Running'; i++) await new Promise((r) => setTimeout(r, 20));
    expect((await app.deps.tasks.get(task))?.status).to.equal('Running');

    const filler = path.join(mount, 'filler');
    fill(filler);
    release();
    // The job has ended; its final state cannot be written yet.
    await new Promise((r) => setTimeout(r, 500));
    expect(await status()).to.equal(202);

    rmSync(filler);
    let answered = 0;
    for (let i = 0; i < 100 && (answered = await status()) === 202; i++) await new Promise((r) => setTimeout(r, 100));
    expect(answered, `the task is still Running 10 s after the disk had room; log: ${JSON.stringify(app.logged)}`).to.equal(200);
    const done = await fetch(task, { headers: { Accept: 'text/uri-list' } });
    expect((await done.text()).trim().split(/\r?\n/)).to.have.members(result);
  });
});
