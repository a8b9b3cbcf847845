// Metal complexes: the SMILES we write must be readable by toolkits that know no dative
// bonds (Open Babel, RDKit before 2024), and InChI (which disconnects metals by design)
// must be produced for them. Judge: Open Babel's InChIKey and PubChem's for cisplatin.
import { expect } from 'chai';
import { initChem, parseStructure } from '../../../src/chem/index.ts';
import { writeStructure } from '../../../src/chem/write.ts';
import { obabelInchiKey, obabelSmiles, oldRdkitReads } from '../../helpers/obabel.ts';

/** Cisplatin, PubChem CID 5460033: standard InChIKey. */
const CISPLATIN_KEY = 'LXZZYRPGZAFOLE-UHFFFAOYSA-L';

const COMPLEXES: Array<[string, string]> = [
  ['cisplatin', 'Cl[Pt](Cl)([NH3])[NH3]'],
  ['tetraammine copper(II)', '[NH3][Cu+2]([NH3])([NH3])[NH3]'],
  ['hexaammine cobalt(III)', '[NH3][Co+3]([NH3])([NH3])([NH3])([NH3])[NH3]'],
  ['ferrocene (ionic)', 'c1cc[cH-]c1.c1cc[cH-]c1.[Fe+2]'],
];

describe('chem: metal complexes', () => {
  before(() => initChem(['inchi', 'cml', 'cdxml']));

  it('cisplatin: SMILES without dative bonds, the InChIKey of PubChem', () => {
    const p = parseStructure('Cl[Pt](Cl)([NH3])[NH3]', 'smiles');
    expect(p.smiles).not.to.match(/->|<-/);
    expect(p.inchiKey).to.equal(CISPLATIN_KEY);
    expect(writeStructure(p, 'inchikey').trim()).to.equal(CISPLATIN_KEY);
  });

  for (const [name, smiles] of COMPLEXES) {
    it(`${name}: every written format is read by Open Babel as the same InChIKey`, () => {
      const p = parseStructure(smiles, 'smiles');
      expect(p.inchi, 'InChI made').to.match(/^InChI=1S\//);
      expect(p.smiles).not.to.match(/->|<-/);
      expect(obabelSmiles(p.smiles + '\n', 'smi'), 'Open Babel reads our SMILES').not.to.equal('');
      expect(oldRdkitReads(p.smiles), 'RDKit 2022.09 reads our SMILES').to.equal(true);
      expect(obabelInchiKey(p.smiles + '\n', 'smi'), 'SMILES').to.equal(p.inchiKey);
      expect(obabelInchiKey(writeStructure(p, 'molfile'), 'mol'), 'molfile').to.equal(p.inchiKey);
      expect(obabelInchiKey(writeStructure(p, 'sdf'), 'sdf'), 'SD file').to.equal(p.inchiKey);
      // and back through us
      expect(parseStructure(p.smiles, 'smiles').inchiKey).to.equal(p.inchiKey);
      expect(parseStructure(writeStructure(p, 'molfile'), 'molfile').inchiKey).to.equal(p.inchiKey);
    });
  }
});

describe('chem: InChI of a compound stored with a dative bond', () => {
  before(() => initChem(['inchi', 'cml', 'cdxml']));

  it('is made from its SMILES when the stored record has none', () => {
    const stored = { smiles: '[NH3]->[Pt](<-[NH3])([Cl])[Cl]', inchi: '', inchiKey: '', molfile: '', formula: 'Cl2H6N2Pt', molecularWeight: 300.05 };
    expect(writeStructure(stored, 'inchi')).to.equal('InChI=1S/2ClH.2H3N.Pt/h2*1H;2*1H3;/q;;;;+2/p-2\n');
    expect(writeStructure(stored, 'inchikey')).to.equal(`${CISPLATIN_KEY}\n`);
  });

  it('a structure InChI cannot describe is still a 400 naming why', () => {
    const stored = { smiles: '*CC', inchi: '', inchiKey: '', molfile: '', formula: 'C2H5R', molecularWeight: 29 };
    expect(() => writeStructure(stored, 'inchi')).to.throw(/InChI cannot describe/);
  });
});
