import { expect } from 'chai';
import { readFileSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fingerprintsOf, initFingerprints } from '../../../src/chem/fingerprints.ts';
import { StructureIndex } from '../../../src/search/index.ts';
import { IndexFile } from '../../../src/search/indexFile.ts';
import { tempDir } from '../../helpers/app.ts';

function entry(uri: string, smiles: string) {
  const f = fingerprintsOf(smiles);
  return { uri, canonicalSmiles: f.canonicalSmiles, inchiKey: 'KEY-' + uri, morgan: f.morgan, pattern: f.pattern, pickle: f.pickle };
}

describe('IndexFile (the search index on disk)', () => {
  before(async () => { await initFingerprints(); });

  it('round-trips entries and drops a torn last record', () => {
    const file = path.join(tempDir(), 'search', 'structures.idx');
    const writer = new IndexFile(file, 'v1');
    writer.append(entry('/compound/1', 'CCO'));
    writer.append(entry('/compound/2', 'c1ccccc1'));
    writer.appendRemove('/compound/1');
    writer.append(entry('/compound/3', 'CC(=O)O'));
    writer.close();
    truncateSync(file, statSync(file).size - 7);
    const index = new StructureIndex();
    const result = new IndexFile(file, 'v1').load(index);
    expect(result.loaded).to.equal(true);
    expect(index.size).to.equal(1);
    const e = index.entry(index.slotOf('/compound/2')!)!;
    expect(e.canonicalSmiles).to.equal('c1ccccc1');
    expect(e.inchiKey).to.equal('KEY-/compound/2');
    expect([...e.morgan]).to.deep.equal([...fingerprintsOf('c1ccccc1').morgan]);
    expect(result.garbage).to.be.greaterThan(0);
  });

  it('writes what one turn of the event loop appended once that turn is over, without a close', async () => {
    const file = path.join(tempDir(), 'search', 'structures.idx');
    const writer = new IndexFile(file, 'v1');
    writer.append(entry('/compound/1', 'CCO'));
    writer.append(entry('/compound/2', 'c1ccccc1'));
    writer.appendRemove('/compound/1');
    await new Promise((resolve) => setImmediate(resolve));
    const index = new StructureIndex();
    expect(new IndexFile(file, 'v1').load(index)).to.deep.equal({ loaded: true, garbage: 2 });
    expect(index.slotOf('/compound/2')).to.not.equal(undefined);
    expect(index.slotOf('/compound/1')).to.equal(undefined);
    writer.append(entry('/compound/3', 'CC(=O)O'));
    writer.close();
    const again = new StructureIndex();
    new IndexFile(file, 'v1').load(again);
    expect(again.size).to.equal(2);
  });

  it('ignores a file of another fingerprint version or no file at all', () => {
    const dir = tempDir();
    const file = path.join(dir, 'structures.idx');
    const writer = new IndexFile(file, 'v1');
    writer.append(entry('/compound/1', 'CCO'));
    writer.close();
    expect(new IndexFile(file, 'v2').load(new StructureIndex()).loaded).to.equal(false);
    expect(new IndexFile(path.join(dir, 'none.idx'), 'v1').load(new StructureIndex()).loaded).to.equal(false);
    writeFileSync(file, 'junk');
    expect(new IndexFile(file, 'v1').load(new StructureIndex()).loaded).to.equal(false);
    expect(readFileSync(file, 'utf8')).to.equal('junk');
  });
});
