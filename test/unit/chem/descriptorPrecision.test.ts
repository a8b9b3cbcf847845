// Descriptor values as a chemist writes them: rounded to the precision the descriptor
// has (3 decimals of g/mol for weights, 2 for logP and areas, integers for counts), never
// the float noise of a sum (206.28499999999997). Judge: hand-computed weights (IUPAC
// weights C 12.011, H 1.008, O 15.999) and RDKit 2022.09 from Debian (python3-rdkit).
import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { computeDescriptors, DESCRIPTORS } from '../../../src/chem/descriptors.ts';
import { computeOclProperties, OCL_PROPERTIES } from '../../../src/chem/oclProperties.ts';

const MOLECULES = ['CC(C)Cc1ccc(cc1)C(C)C(=O)O', 'CC(=O)Oc1ccccc1C(=O)O', 'Cn1cnc2c1c(=O)n(C)c(=O)n2C', 'OC[C@H]1O[C@@H](O)[C@H](O)[C@@H](O)[C@@H]1O', 'C[N+](C)(C)CC(=O)[O-]'];

/** Python RDKit functions for our descriptor names. */
const PYTHON: Record<string, string> = {
  MW: 'Descriptors.MolWt', ExactMass: 'Descriptors.ExactMolWt', LogP: 'Crippen.MolLogP', MR: 'Crippen.MolMR', TPSA: 'rdMolDescriptors.CalcTPSA',
  LabuteASA: 'rdMolDescriptors.CalcLabuteASA', Kappa1: 'rdMolDescriptors.CalcKappa1', Chi0v: 'rdMolDescriptors.CalcChi0v', FractionCSP3: 'rdMolDescriptors.CalcFractionCSP3',
};

function pythonValues(): number[][] {
  const script = `import json, sys
from rdkit import Chem
from rdkit.Chem import Descriptors, Crippen, rdMolDescriptors
out = []
for s in json.load(sys.stdin):
    m = Chem.MolFromSmiles(s)
    out.append([${Object.values(PYTHON).map((f) => `${f}(m)`).join(', ')}])
print(json.dumps(out))`;
  return JSON.parse(execFileSync('/usr/bin/python3', ['-c', script], { input: JSON.stringify(MOLECULES), encoding: 'utf8' })) as number[][];
}

const decimals = (v: number) => (String(v).split('.')[1] ?? '').length;

describe('descriptors: values at their meaningful precision', function () {
  this.timeout(60_000);

  it('physchem: hand-computed weights, exactly; no value with more decimals than its descriptor has', async () => {
    const values = await computeDescriptors(MOLECULES, DESCRIPTORS);
    const mw = DESCRIPTORS.findIndex((d) => d.name === 'MW');
    expect(values[0]![mw]).to.equal(206.285); // C13H18O2; RDKit's sum prints 206.28499999999997
    expect(values[1]![mw]).to.equal(180.159); // C9H8O4
    values.forEach((row) => row.forEach((v, j) => {
      expect(v, DESCRIPTORS[j]!.name).to.be.a('number');
      expect(decimals(v!), `${DESCRIPTORS[j]!.name} ${v}`).to.be.at.most(DESCRIPTORS[j]!.digits);
    }));
  });

  it('physchem: equal to RDKit 2022.09 (Python) within the precision given', async () => {
    const names = Object.keys(PYTHON);
    const selected = names.map((n) => DESCRIPTORS.find((d) => d.name === n)!);
    const ours = await computeDescriptors(MOLECULES, selected);
    const theirs = pythonValues();
    ours.forEach((row, i) => row.forEach((v, j) => {
      expect(v, `${MOLECULES[i]} ${names[j]}`).to.be.closeTo(theirs[i]![j]!, 0.5 * 10 ** -selected[j]!.digits + 1e-9);
    }));
  });

  it('openchemlib properties: rounded too (its single-precision floats print as 37.29999923706055)', () => {
    const selected = OCL_PROPERTIES.filter((p) => p.name !== 'DrugLikeness');
    const values = computeOclProperties(MOLECULES, selected);
    const psa = selected.findIndex((p) => p.name === 'PSA');
    expect(values[0]![psa]).to.equal(37.3); // ibuprofen: TPSA 37.3 Å2 (Ertl 2000 increments)
    values.forEach((row) => row.forEach((v, j) => expect(decimals(v!), `${selected[j]!.name} ${v}`).to.be.at.most(selected[j]!.digits)));
  });
});
