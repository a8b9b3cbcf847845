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

  it('keeps pickles and identity keys in the file and reads them back: pending, written, rewritten, loaded', async () => {
    const file = path.join(tempDir(), 'search', 'structures.idx');
    const writer = new IndexFile(file, 'v1');
    const index = new StructureIndex(writer);
    const add = (uri: string, smiles: string) => index.add(entry(uri, smiles), writer.append(entry(uri, smiles)));
    const phenol = fingerprintsOf('Oc1ccccc1');
    add('/compound/1', 'CCO');
    add('/compound/2', 'Oc1ccccc1');
    // Not written yet: read from the pending records.
    expect([...index.pickle(index.slotOf('/compound/2')!)!]).to.deep.equal([...phenol.pickle]);
    await new Promise((resolve) => setImmediate(resolve));
    add('/compound/3', 'CC(=O)O');
    index.add(entry('/compound/4', 'CCN')); // held in memory until the file is rewritten
    expect(index.lookup({ canonicalSmiles: phenol.canonicalSmiles })).to.deep.equal([1]);
    expect(index.lookup({ inchiKey: 'KEY-/compound/3' })).to.deep.equal([2]);
    expect(index.lookup({ canonicalSmiles: 'CCCl', inchiKey: 'KEY-/compound/9' })).to.deep.equal([]);
    const pickleOf = (smiles: string) => [...fingerprintsOf(smiles).pickle];
    // Written, pending and held in memory, read together.
    expect(index.pickles([0, 1, 2, 3]).map((p) => [...p])).to.deep.equal(['CCO', 'Oc1ccccc1', 'CC(=O)O', 'CCN'].map(pickleOf));
    writer.rewrite(index);
    for (const [slot, smiles] of [[0, 'CCO'], [1, 'Oc1ccccc1'], [2, 'CC(=O)O'], [3, 'CCN']] as const) {
      const e = index.entry(slot)!;
      expect([e.uri, e.canonicalSmiles, e.inchiKey]).to.deep.equal([`/compound/${slot + 1}`, fingerprintsOf(smiles).canonicalSmiles, `KEY-/compound/${slot + 1}`]);
      expect([...e.pickle]).to.deep.equal([...fingerprintsOf(smiles).pickle]);
    }
    writer.close();
    const reader = new IndexFile(file, 'v1');
    const again = new StructureIndex();
    expect(reader.load(again)).to.deep.equal({ loaded: true, garbage: 0 });
    expect(again.lookup({ inchiKey: 'KEY-/compound/4' })).to.deep.equal([3]);
    expect([...again.pickle(1)!]).to.deep.equal([...phenol.pickle]);
    expect([...again.entry(1)!.morgan]).to.deep.equal([...phenol.morgan]);
    // Out of file order, twice over, and a removed compound (no pickle).
    again.remove('/compound/3');
    expect(again.pickles([3, 0, 1, 2, 1]).map((p) => [...p])).to.deep.equal([pickleOf('CCN'), pickleOf('CCO'), [...phenol.pickle], [], [...phenol.pickle]]);
    reader.close();
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
