// npm run check-store: a data directory written by the real service is consistent; each
// kind of damage (a dataset entry without its compound, a model without its feature, a
// task left Running, a missing or stray structure file, a temp file, an orphan upload)
// is listed on its own line and the exit code is 1.
import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { describeEmbedded } from '../helpers/engines.ts';
import { DataFactory } from 'n3';
import { startApp, tempDir } from '../helpers/app.ts';
import { sharedData } from '../helpers/data.ts';

const run = promisify(execFile);
const { quad, namedNode, literal } = DataFactory;
const OT = 'http://www.opentox.org/api/1.1#';
const RDF_TYPE = namedNode('http://www.w3.org/1999/02/22-rdf-syntax-ns#type');

async function checkStore(dataDir: string): Promise<{ code: number; out: string }> {
  try {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', 'scripts/check-store.ts', '--data-dir', dataDir]);
    return { code: 0, out: stdout };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, out: err.stdout + err.stderr };
  }
}

// Embedded only: check-store reads an embedded data directory (journal, snapshot, structure files).
describeEmbedded('npm run check-store', function () {
  this.timeout(120_000);
  const dataDir = tempDir('opentox-check-');
  let base = '';
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  before(async () => {
    const app = await startApp({ syncWindowMs: 20_000 }, dataDir);
    base = app.url;
    const compound = await fetch(app.url + '/compound', { method: 'POST', headers: { 'Content-Type': 'chemical/x-mdl-sdfile', Accept: 'text/uri-list' }, body: readFileSync(sharedData('opentox-test', 'acetaldehyde.sdf'), 'utf8') });
    expect(compound.status).to.equal(200);
    const dataset = await fetch(app.url + '/dataset', { method: 'POST', headers: { 'Content-Type': 'text/csv', Accept: 'text/uri-list' }, body: 'SMILES,y\nCCO,1\nCC,2\n' });
    expect(dataset.status).to.equal(200);
    await app.close({ keepData: true });
  });

  it('finds nothing wrong in a directory the service wrote', async () => {
    const { code, out } = await checkStore(dataDir);
    expect(out).to.match(/: consistent\n$/);
    expect(code).to.equal(0);
  });

  it('lists every problem and exits 1', async () => {
    // Damage of each kind, written as a crash or a bug would leave it.
    const app = await startApp({ baseUrl: base }, dataDir);
    const task = `${base}/task/00000000-0000-7000-8000-000000000001`;
    await app.deps.store.addToGraph(task, [quad(namedNode(task), RDF_TYPE, namedNode(OT + 'Task'), namedNode(task)), quad(namedNode(task), namedNode(OT + 'hasStatus'), literal('Running'), namedNode(task))]);
    const dataset = `${base}/dataset/1`;
    await app.deps.store.addToGraph(dataset, [quad(namedNode(`${dataset}/entry/x`), namedNode(OT + 'compound'), namedNode(`${base}/compound/999`), namedNode(dataset))]);
    const model = `${base}/model/77`;
    await app.deps.store.addToGraph(model, [quad(namedNode(model), RDF_TYPE, namedNode(OT + 'Model'), namedNode(model)), quad(namedNode(model), namedNode(OT + 'independentVariables'), namedNode(`${base}/feature/888`), namedNode(model))]);
    await app.close({ keepData: true });
    const structures = path.join(dataDir, 'structures');
    const [first] = readdirSync(structures);
    const [file] = readdirSync(path.join(structures, first!));
    rmSync(path.join(structures, first!, file!));
    writeFileSync(path.join(structures, first!, 'stray.mol'), 'x');
    writeFileSync(path.join(dataDir, 'store', 'snapshot.tmp'), 'half');
    mkdirSync(path.join(dataDir, 'uploads'), { recursive: true });
    writeFileSync(path.join(dataDir, 'uploads', 'orphan.csv'), 'SMILES\nC\n');

    const { code, out } = await checkStore(dataDir);
    expect(code).to.equal(1);
    expect(out, out).to.match(/: 7 problems\n/);
    expect(out).to.include(`- dataset ${dataset} has an entry for ${base}/compound/999, which does not exist`);
    expect(out).to.include(`- model ${model} names feature ${base}/feature/888, which does not exist`);
    expect(out).to.include(`- task ${task} is Running, but no service is running`);
    expect(out).to.include(`- structure file structures/${first}/${file} is named in the store but missing`);
    expect(out).to.include(`- structure file structures/${first}/stray.mol is named by no compound or conformer`);
    expect(out).to.include('- temporary file store/snapshot.tmp was left by an interrupted write');
    expect(out).to.include('- upload file uploads/orphan.csv belongs to no unfinished task');
  });

  it('exits 2 with a message when there is no store', async () => {
    const empty = tempDir('opentox-check-empty-');
    try {
      const { code, out } = await checkStore(empty);
      expect(code).to.equal(2);
      expect(out).to.match(/^no store in .* \(set DATA_DIR or --data-dir\)\n$/);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
