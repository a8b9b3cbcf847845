import { expect } from 'chai';
import { existsSync, mkdirSync, writeFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../../../src/config.ts';
import { openDeps, type Running } from '../../../src/boot.ts';
import { createLogger } from '../../../src/logger.ts';
import { parseStructure } from '../../../src/chem/index.ts';
import { UPLOAD_READER, type UploadRow } from '../../../src/datasets/uploadReader.ts';
import { compoundUriByKey, ensureCompound, ensureCompounds } from '../../../src/compounds/compounds.ts';
import { tempDir } from '../../helpers/app.ts';
import { rmSync } from 'node:fs';

describe('domain: compound identity and creation', () => {
  let dir: string;
  let deps: Running;
  const open = async () => openDeps(loadConfig([], {}, { dataDir: dir, baseUrl: 'http://example.org' }), createLogger('silent'));
  beforeEach(async () => {
    dir = tempDir();
    deps = await open();
  });
  afterEach(async () => {
    await deps.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('gives two SMILES of one molecule one compound', async () => {
    const a = await ensureCompound(deps, parseStructure('OCC', 'smiles'));
    const b = await ensureCompound(deps, parseStructure('C(O)C', 'smiles'));
    expect(a).to.deep.equal({ uri: 'http://example.org/compound/1', created: true });
    expect(b).to.deep.equal({ uri: 'http://example.org/compound/1', created: false });
    const p = parseStructure('CCO', 'smiles');
    expect(compoundUriByKey(deps, p.inchiKey, p.smiles)).to.equal(a.uri);
  });

  it('creates many in one go, duplicates and concurrent calls sharing ids', async () => {
    const list = ['CCO', 'CCN', 'OCC', 'c1ccccc1', 'CCN'].map((s) => parseStructure(s, 'smiles'));
    const [uris, again] = await Promise.all([ensureCompounds(deps, list), ensureCompounds(deps, list)]);
    expect(uris).to.deep.equal(again);
    expect(new Set(uris).size).to.equal(3);
    expect(uris[0]).to.equal(uris[2]);
  });

  it('survives a restart and removes structure files no triple names', async () => {
    const s = parseStructure(`\n  test\n\n  2  1  0  0  0  0  0  0  0  0999 V2000\n    0.0000    0.0000    0.0000 C   0  0\n    1.2000    0.0000    0.0000 O   0  0\n  1  2  1  0\nM  END\n`, 'molfile');
    const { uri } = await ensureCompound(deps, s);
    const structures = path.join(dir, 'structures');
    expect(readdirSync(path.join(structures, '1'))).to.have.length(1);
    mkdirSync(path.join(structures, '99'), { recursive: true });
    writeFileSync(path.join(structures, '99', 'compound-dead.mol'), 'orphan');
    writeFileSync(path.join(structures, '1', 'compound-x.mol.tmp'), 'half');
    await deps.close();
    deps = await open();
    expect(existsSync(path.join(structures, '99'))).to.equal(false);
    expect(readdirSync(path.join(structures, '1'))).to.have.length(1);
    expect(compoundUriByKey(deps, s.inchiKey, s.smiles)).to.equal(uri);
    expect((await ensureCompound(deps, parseStructure('CCN', 'smiles'))).uri).to.equal('http://example.org/compound/2');
  });
});

describe('chem: parsing in worker threads', function () {
  this.timeout(60_000);
  it('the upload reader answers one row per row asked for, parse errors as data', async () => {
    const dir = tempDir();
    const deps = await openDeps(loadConfig([], {}, { dataDir: dir, baseUrl: 'http://example.org' }), createLogger('silent'));
    try {
      const file = path.join(dir, 'rows.smi');
      writeFileSync(file, 'OCC ethanol\nC(C)(C)(C)(C)C\nc1ccccc1 benzene\n');
      const out = await deps.tasks.runInWorker<UploadRow[]>(UPLOAD_READER, 'parseUploadRows', { file, kind: 'smiles', baseIri: 'http://example.org/dataset/1', nominal: [], from: 0, to: 2 });
      expect(out).to.have.length(2);
      expect(out[0]!.parsed).to.have.property('smiles', 'CCO');
      expect(out[0]!.values).to.deep.equal(['ethanol']);
      expect(out[1]!.parsed).to.have.property('error').that.matches(/valence/);
    } finally {
      await deps.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('domain: identifier features', () => {
  it('are created with the first compound, at stable URIs under the base', async () => {
    const dir = tempDir();
    const deps = await openDeps(loadConfig([], {}, { dataDir: dir, baseUrl: 'http://example.org' }), createLogger('silent'));
    try {
      const names = ['compound-smiles', 'compound-inchi', 'compound-inchikey', 'compound-formula', 'compound-mw'];
      expect(await deps.store.hasGraph('http://example.org/feature/compound-mw')).to.equal(false);
      await ensureCompound(deps, parseStructure('CCO', 'smiles'));
      for (const name of names) expect(await deps.store.hasGraph(`http://example.org/feature/${name}`), name).to.equal(true);
    } finally {
      await deps.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
