// The upload warm-up (src/datasets/warmUp.ts) runs a whole upload through the real code at
// every `npm start`, into a scratch store: the service itself must not notice it.
import { expect } from 'chai';
import { readdirSync } from 'node:fs';
import os from 'node:os';
import { startApp, type TestApp } from '../helpers/app.ts';
import { uploadDataset, lines } from '../helpers/datasets.ts';
import { warmUpCsv, warmUploads } from '../../src/datasets/warmUp.ts';
import { compoundIndex } from '../../src/compounds/compoundIndex.ts';
import { WARM_UP_STRUCTURES } from '../../src/chem/warmUp.ts';

const scratchDirs = () => readdirSync(os.tmpdir()).filter((f) => f.startsWith('opentox-warm-up-'));

describe('the upload warm-up', function () {
  this.timeout(120_000);
  let app: TestApp;
  before(async () => (app = await startApp()));
  after(async () => app?.close());

  it('makes one row per pair of warm-up structures, each a distinct mixture with a 0/1 activity', () => {
    const rows = warmUpCsv(['C', 'O', 'N']).trim().split('\n');
    expect(rows).to.deep.equal(['SMILES,Activity', 'C.C,1', 'C.O,0', 'C.N,1', 'O.O,0', 'O.N,1', 'N.N,0']);
    const n = WARM_UP_STRUCTURES.length;
    expect(warmUpCsv().trim().split('\n')).to.have.length(1 + (n * (n + 1)) / 2);
  });

  it('leaves nothing in the service: no compound, dataset, feature, search entry or file, and the ids start at 1', async function () {
    if (app.deps.store.kind !== 'embedded') this.skip(); // the warm-up runs with the embedded store only (boot.ts)
    const before = scratchDirs();
    const graphs = async () => (await app.deps.store.select('graphs-with-prefix', { prefix: `${app.url}/` })).length;
    const graphsBefore = await graphs();
    await warmUploads(app.deps);
    expect(scratchDirs()).to.deep.equal(before);
    expect(await graphs()).to.equal(graphsBefore);
    expect(compoundIndex(app.deps).ids()).to.deep.equal([]);
    expect(app.deps.search.index.size).to.equal(0);
    expect(await lines(`${app.url}/dataset`)).to.deep.equal([]);
    expect(await lines(`${app.url}/feature`)).to.deep.equal([]);
    // The service's own first upload gets the first ids.
    const done = await uploadDataset(app, 'SMILES,Activity\nCCO,1\nc1ccccc1O,0\n', 'text/csv');
    expect(done).to.deep.equal({ status: 200, body: `${app.url}/dataset/1` });
    expect(await lines(`${app.url}/dataset/1/compounds`)).to.deep.equal([`${app.url}/compound/1`, `${app.url}/compound/2`]);
    expect(await lines(`${app.url}/dataset/1/features`)).to.deep.equal([`${app.url}/feature/1`]);
  });

  it('fails as an upload of its rows would, and still removes its scratch copy', async () => {
    const before = scratchDirs();
    let error: unknown;
    await warmUploads(app.deps, 'SMILES,Activity\nnot a structure,1\n').catch((e: unknown) => (error = e));
    expect(error).to.be.instanceOf(Error).with.property('message').that.matches(/no row loaded: row 2/);
    expect(scratchDirs()).to.deep.equal(before);
  });
});
