import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { initChem, parseStructure, splitSdf, formatOfMediaType, type ChemFormat } from '../../../src/chem/index.ts';
import { BadRequest, ServiceUnavailable } from '../../../src/errors.ts';
import { restartRdkit } from '../../../src/chem/toolkits.ts';
import { sharedData } from '../../helpers/data.ts';

const ALANINE_INCHI = 'InChI=1S/C3H7NO2/c1-2(4)3(5)6/h2H,4H2,1H3,(H,5,6)/t2-/m0/s1';

describe('chem: parseStructure', () => {
  before(() => initChem(['inchi', 'cml', 'cdxml']));

  it('gives canonical SMILES, standard InChI/InChIKey, formula and weight', () => {
    const p = parseStructure('OC(=O)[C@@H](N)C', 'smiles');
    expect(p.smiles).to.equal('C[C@H](N)C(=O)O');
    expect(p.inchi).to.equal(ALANINE_INCHI);
    expect(p.inchiKey).to.equal('QNAYBMKLOCPYGJ-REOHCLBHSA-N');
    expect(p.formula).to.equal('C3H7NO2');
    expect(p.molecularWeight).to.be.closeTo(89.094, 0.01);
    expect(p.molfile.split('\n')[3]!.slice(12, 15)).to.equal('  1', 'chiral flag set');
  });

  it('reads InChI through Indigo, stereo kept', () => {
    expect(parseStructure(ALANINE_INCHI, 'inchi').smiles).to.equal('C[C@H](N)C(=O)O');
  });

  it('reads an SD file record with its coordinates', () => {
    const p = parseStructure(readFileSync(sharedData('opentox-test', 'acetaldehyde.sdf'), 'utf8'), 'sdf');
    expect(p.smiles).to.equal('CC=O');
    expect(p.hasCoords).to.equal(true);
  });

  it('reads CML as CDK writes it (ambit diamantane.cml), one molecule at a time', () => {
    const cml = readFileSync(sharedData('ambit', 'diamantane.cml'), 'utf8');
    expect(() => parseStructure(cml, 'cml')).to.throw(BadRequest, /3 molecules.*\/dataset/);
    const first = cml.slice(cml.indexOf('<molecule'), cml.indexOf('</molecule>') + '</molecule>'.length);
    expect(parseStructure(first, 'cml').formula).to.equal('C14H20');
  });

  const bad: Array<[string, ChemFormat, RegExp]> = [
    ['', 'smiles', /empty/],
    ['C(C)(C)(C)(C)C', 'smiles', /valence/],
    ['InChI=1S/garbage', 'inchi', /InChI: cannot be read/],
    ['<cml', 'inchi', /InChI=/],
    ['not xml', 'cml', /not XML/],
    ['x\n\n\n  a  b\n', 'molfile', /line 4 \(counts line\)/],
    ['\u0000\u0001abc', 'smiles', /binary/],
    ['C'.repeat(200_000), 'smiles', /longer than/],
    ['CCO\nCCN', 'smiles', /2 lines/],
    // An empty connection table (CPDBAS has such records): refused before RDKit fails on it.
    ['\n\n\n  0  0  0  0  0  0  0  0  0  0  1 V2000\nM  END\n', 'molfile', /: no atoms$/],
    ['\n\n\n  0  0  0  0  0  0  0  0  0  0  1 V2000\nM  END\n$$$$\n', 'sdf', /^SD file: no atoms$/],
  ];
  for (const [text, format, message] of bad) {
    it(`rejects ${format} ${JSON.stringify(text.slice(0, 20))}`, () => {
      expect(() => parseStructure(text, format)).to.throw(BadRequest, message);
    });
  }

  it('maps media types to formats', () => {
    expect(formatOfMediaType('chemical/x-daylight-smiles; charset=utf-8')).to.equal('smiles');
    expect(formatOfMediaType('chemical/x-mdl-sdfile')).to.equal('sdf');
    expect(formatOfMediaType('image/png')).to.equal(undefined);
  });

  it('splits SD files with 1-based index, start line and data fields', () => {
    const records = splitSdf(readFileSync(sharedData('ambit', 'input.sdf'), 'utf8'));
    expect(records).to.have.length(7);
    expect(records[0]!.index).to.equal(1);
    expect(records[0]!.line).to.equal(1);
    expect(records[1]!.line).to.be.greaterThan(5);
    expect(Object.keys(records[0]!.fields).length).to.be.greaterThan(0);
  });
});

describe('chem: toolkit limits and crashes', () => {
  before(() => initChem(['inchi', 'cml', 'cdxml']));

  it('refuses structures past MAX_ATOMS before RDKit sees them', () => {
    expect(() => parseStructure('C'.repeat(800), 'smiles')).to.throw(BadRequest, /800 atoms is more than the limit of 500/);
    expect(parseStructure('C'.repeat(400), 'smiles').formula).to.equal('C400H802');
  });

  it('after a WASM crash RDKit is reloaded; meanwhile parsing answers 503', async () => {
    restartRdkit();
    expect(() => parseStructure('CCO', 'smiles')).to.throw(ServiceUnavailable);
    await initChem(['inchi', 'cml', 'cdxml']);
    expect(parseStructure('CCO', 'smiles').smiles).to.equal('CCO');
  });
});
