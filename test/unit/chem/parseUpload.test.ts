import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { initChem, parseStructure } from '../../../src/chem/index.ts';
import { fingerprintsOf, initFingerprints } from '../../../src/chem/fingerprints.ts';
import { parseUploadRows } from '../../../src/datasets/uploadReader.ts';
import { tempDir } from '../../helpers/app.ts';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { sharedData } from '../../helpers/data.ts';
import { splitSdf } from '../../../src/chem/sdf.ts';

// Identities are PubChem's (alanine CID 5950, cisplatin CID 5702198), not our own output.
const ALANINE = { smiles: 'C[C@H](N)C(=O)O', inchiKey: 'QNAYBMKLOCPYGJ-REOHCLBHSA-N', formula: 'C3H7NO2' };
const CISPLATIN_KEY = 'LXZZYRPGZAFOLE-UHFFFAOYSA-L';

describe('chem: parseStructure for uploads (molfile only with coordinates)', () => {
  before(() => Promise.all([initChem(['inchi', 'cml', 'cdxml']), initFingerprints()]));

  it('SMILES: the same identity, formula and weight, and no molfile', () => {
    const p = parseStructure('OC(=O)[C@@H](N)C', 'smiles', { molfile: 'withCoordinates' });
    expect(p).to.include(ALANINE);
    expect(p.molecularWeight).to.be.closeTo(89.094, 0.01);
    expect(p.molfile).to.equal('');
    const full = parseStructure('OC(=O)[C@@H](N)C', 'smiles');
    expect(full.molfile).to.match(/V2000/);
    expect({ ...p, molfile: '' }).to.deep.equal({ ...full, molfile: '' });
  });

  it('a dative bond still becomes charges (one JSON for the check and the formula)', () => {
    const p = parseStructure('Cl[Pt](Cl)([NH3])[NH3]', 'smiles', { molfile: 'withCoordinates' });
    expect(p.inchiKey).to.equal(CISPLATIN_KEY);
    expect(p.formula).to.equal('Cl2H6N2Pt');
    expect(p.molecularWeight).to.be.closeTo(300.05, 0.05);
  });

  it('an SD file record keeps its molfile: the upload stores it as the structure file', () => {
    const p = parseStructure(readFileSync(sharedData('opentox-test', 'acetaldehyde.sdf'), 'utf8'), 'sdf', { molfile: 'withCoordinates' });
    expect(p.hasCoords).to.equal(true);
    expect(p.molfile).to.match(/V2000/);
  });

  it('the upload reader attaches to each row the search fingerprints of its canonical SMILES', async () => {
    const file = path.join(tempDir(), 'two.csv');
    writeFileSync(file, 'SMILES,y\nOC(=O)[C@@H](N)C,1\nC1CC,2\n');
    const rows = await parseUploadRows({ file, kind: 'csv', baseIri: 'http://x/dataset/1', nominal: [], from: 0, to: 2 });
    expect(rows.map((r) => [r.row, r.values])).to.deep.equal([[2, ['1']], [3, ['2']]]);
    const [ok, bad] = rows.map((r) => r.parsed);
    expect(ok).to.include(ALANINE);
    if (ok === undefined || 'error' in ok) throw new Error(`alanine not parsed: ${JSON.stringify(ok)}`);
    const expected = fingerprintsOf(ALANINE.smiles);
    expect(ok.fingerprints?.canonicalSmiles).to.equal(expected.canonicalSmiles);
    expect([...ok.fingerprints!.morgan]).to.deep.equal([...expected.morgan]);
    expect([...ok.fingerprints!.pattern]).to.deep.equal([...expected.pattern]);
    // What the substructure matcher reads the molecule back from.
    expect(ok.fingerprints!.pickle).to.be.instanceOf(Uint8Array).and.have.property('length').above(0);
    expect(bad).to.have.property('error').that.matches(/not a valid structure/);
  });

  it('fingerprints taken during the parse equal those of the canonical SMILES parsed again (kazius, two SD files)', () => {
    // The search index compares them with fingerprints of query and POSTed structures, which
    // come from a SMILES: one differing bit would hide a hit.
    const kazius = readFileSync(sharedData('opentox-test', 'kazius.csv'), 'utf8').trim().split(/\r?\n/).slice(1).filter((_l, i) => i % 4 === 0).map((l) => l.split(',')[0]!);
    const sdf = ['CPDBAS_v5c_1547_29Apr2008part.sdf', 'hamster_carcinogenicity.sdf'].flatMap((f) => splitSdf(readFileSync(sharedData('opentox-test', f), 'utf8')).map((r) => r.molfile));
    const differing: string[] = [];
    let compared = 0;
    for (const [texts, format] of [[kazius, 'smiles'], [sdf, 'sdf']] as const) {
      for (const text of texts) {
        let p;
        try {
          p = parseStructure(text, format, { molfile: 'withCoordinates', fingerprints: true });
        } catch {
          continue; // refused structures are tested elsewhere
        }
        const again = fingerprintsOf(p.smiles);
        compared++;
        const same = p.fingerprints?.canonicalSmiles === again.canonicalSmiles && p.fingerprints.morgan.every((w, i) => w === again.morgan[i]) && p.fingerprints.pattern!.every((w, i) => w === again.pattern[i]);
        if (!same) differing.push(p.smiles);
      }
    }
    expect(compared).to.be.greaterThan(1000);
    expect(differing).to.deep.equal([]);
  });

  it('fingerprints only when asked for, from the molecule without hydrogens for 3D input', () => {
    expect(parseStructure('OC(=O)[C@@H](N)C', 'smiles').fingerprints).to.equal(undefined);
    // 3D input: the SMILES and fingerprints come from the molecule without hydrogens.
    const ethanol3d = [
      '', '  made by hand', '',
      '  3  2  0  0  0  0  0  0  0  0999 V2000',
      '    0.0000    0.0000    0.0000 C   0  0  0  0  0  0  0  0  0  0  0  0',
      '    1.5000    0.0000    0.5000 C   0  0  0  0  0  0  0  0  0  0  0  0',
      '    2.0000    1.2000    0.0000 O   0  0  0  0  0  0  0  0  0  0  0  0',
      '  1  2  1  0', '  2  3  1  0', 'M  END',
    ].join('\n');
    const e = parseStructure(ethanol3d, 'molfile', { fingerprints: true });
    expect(e.is3D).to.equal(true);
    // Ethanol, PubChem CID 702.
    expect(`${e.smiles} ${e.inchiKey}`).to.equal('CCO LFQSCWFLJHTTHZ-UHFFFAOYSA-N');
    expect([...e.fingerprints!.pattern!]).to.deep.equal([...fingerprintsOf('CCO').pattern]);
    expect([...e.fingerprints!.morgan]).to.deep.equal([...fingerprintsOf('CCO').morgan]);
  });
});
