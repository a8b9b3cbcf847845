// Files handed between processes (src/tasks/sharedFiles.ts): on a remote store they are
// graphs of base64 parts, because Virtuoso refuses an update request over 10 MB.
import { expect } from 'chai';
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../../../src/config.ts';
import { SparqlStore } from '../../../src/store/sparql/store.ts';
import { DataFactory } from 'n3';
import { graphOf, readShared, removeShared, sharedAsLocal, writeShared } from '../../../src/tasks/sharedFiles.ts';
import { SVC } from '../../../src/rdf/vocab.ts';
import { startVirtuoso, type Virtuoso } from '../../../scripts/engines/virtuoso.ts';
import { tempDir } from '../../helpers/app.ts';

const { quad, namedNode, literal } = DataFactory;

describe('shared files on a remote store (Virtuoso)', function () {
  this.timeout(120_000);
  let virtuoso: Virtuoso;
  const dirs = [tempDir('opentox-virtuoso-'), tempDir('opentox-shared-')];
  let deps: { config: ReturnType<typeof loadConfig>; store: SparqlStore };

  before(async () => {
    virtuoso = await startVirtuoso({ dir: dirs[0]! });
    deps = { config: loadConfig([], {}, { dataDir: dirs[1]! }), store: new SparqlStore({ queryUrl: virtuoso.endpoint }) };
  });
  after(async () => {
    await virtuoso?.stop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('keeps a 12 MB upload whole (over Virtuoso\'s 10 MB request limit), byte for byte', async () => {
    const bytes = randomBytes(12 * 1024 * 1024 + 17);
    let t = performance.now();
    await writeShared(deps, 'uploads/big.csv', bytes);
    const written = performance.now() - t;
    t = performance.now();
    expect((await readShared(deps, 'uploads/big.csv')).equals(bytes)).to.equal(true);
    if (process.env.SHARED_FILES_TIMES) console.log(`write ${written.toFixed(0)} ms, read ${(performance.now() - t).toFixed(0)} ms`);
    // The local copy a job reads is written a part at a time, in order.
    t = performance.now();
    expect(readFileSync(await sharedAsLocal(deps, 'uploads/big.csv')).equals(bytes)).to.equal(true);
    if (process.env.SHARED_FILES_TIMES) console.log(`local copy ${(performance.now() - t).toFixed(0)} ms`);
  });

  it('reads a file written before each part had a subject of its own (all under the graph)', async () => {
    const bytes = randomBytes(3 * 192 * 1024 + 5);
    const g = graphOf('models/older.json');
    const base64 = (i: number) => bytes.subarray(i * 192 * 1024, (i + 1) * 192 * 1024).toString('base64');
    await deps.store.addToGraph(g, [0, 1, 2, 3].map((i) => quad(namedNode(g), SVC.term('filePart'), literal(`${i} ${base64(i)}`))));
    await deps.store.addToGraph(g, [quad(namedNode(g), SVC.term('fileParts'), literal('4', namedNode('http://www.w3.org/2001/XMLSchema#integer')))]);
    expect((await readShared(deps, 'models/older.json')).equals(bytes)).to.equal(true);
    expect(readFileSync(await sharedAsLocal(deps, 'models/older.json')).equals(bytes)).to.equal(true);
    await removeShared(deps, 'models/older.json');
  });

  it('keeps an empty file and a small one, and a rewrite replaces the old parts', async () => {
    await writeShared(deps, 'uploads/empty.csv', Buffer.alloc(0));
    expect((await readShared(deps, 'uploads/empty.csv')).length).to.equal(0);
    await writeShared(deps, 'models/1.json', randomBytes(4 * 1024 * 1024));
    await writeShared(deps, 'models/1.json', '{"small":true}');
    expect((await readShared(deps, 'models/1.json')).toString()).to.equal('{"small":true}');
  });

  it('the local copy a worker thread reads is private (0600 in 0700 directories)', async () => {
    const umask = process.umask(0o022);
    try {
      await writeShared(deps, 'uploads/copy/private.csv', 'SMILES\nCCO\n');
      const file = await sharedAsLocal(deps, 'uploads/copy/private.csv');
      expect(statSync(file).mode & 0o777).to.equal(0o600);
      expect(statSync(path.dirname(file)).mode & 0o777).to.equal(0o700);
      expect(statSync(path.dirname(path.dirname(file))).mode & 0o777).to.equal(0o700);
    } finally {
      process.umask(umask);
      await removeShared(deps, 'uploads/copy/private.csv');
    }
  });

  it('a file not written whole (no part count yet) reads as missing, and removed files are gone', async () => {
    await removeShared(deps, 'uploads/big.csv');
    let status = 0;
    await readShared(deps, 'uploads/big.csv').catch((e: { status: number }) => { status = e.status; });
    expect(status).to.equal(404);
  });
});
