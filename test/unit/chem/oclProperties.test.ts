// ocl-properties by default computes what is fast; drug-likeness (one substructure search
// per fragment of its table, about 0.5 s a structure) only when asked, and its parameter
// says what it costs.
import { expect } from 'chai';
import { oclProperties } from '../../../src/algorithms/descriptors/oclProperties.ts';
import { withDefaults } from '../../../src/algorithms/params.ts';
import type { FeaturesResult } from '../../../src/algorithms/types.ts';
import type { Table } from '../../../src/algorithms/table.ts';

const SMILES = ['CC(C)Cc1ccc(cc1)C(C)C(=O)O', 'CC(=O)Oc1ccccc1C(=O)O', 'Cn1cnc2c1c(=O)n(C)c(=O)n2C', 'OCC(O)CO', 'c1ccc2ccccc2c1', 'CCN(CC)CC', 'O=C(O)c1ccccc1O', 'Clc1ccc(Cl)cc1'];
const table: Table = { datasetUri: 'd', compounds: SMILES.map((_, i) => `c${i}`), smiles: SMILES, columns: [], values: SMILES.map(() => []) };

describe('ocl-properties: slow drug-likeness is opt-in', function () {
  this.timeout(120_000);

  it('DrugLikeness defaults to false and its description states the cost', () => {
    const p = oclProperties.params.find((d) => d.name === 'DrugLikeness')!;
    expect(p.default).to.equal(false);
    expect(p.description).to.match(/0\.5 s per structure/);
    expect(oclProperties.params.filter((d) => d.name !== 'DrugLikeness').every((d) => d.default === true)).to.equal(true);
  });

  it('with the defaults: every other property, no drug-likeness, in milliseconds per structure', async () => {
    await oclProperties.run({ table: { ...table, smiles: ['C'] }, params: withDefaults(oclProperties.params, {}), algorithmUri: 'a' }); // load resources
    const started = performance.now();
    const result = (await oclProperties.run({ table, params: withDefaults(oclProperties.params, {}), algorithmUri: 'a' })) as FeaturesResult;
    const perStructure = (performance.now() - started) / SMILES.length;
    expect(result.columns.map((c) => c.title)).to.have.length(7).and.not.to.include('openchemlib drug-likeness score (fragment based)');
    expect(perStructure).to.be.below(150);
  });

  it('DrugLikeness=true adds it', async () => {
    const result = (await oclProperties.run({ table: { ...table, smiles: SMILES.slice(0, 1) }, params: withDefaults(oclProperties.params, { DrugLikeness: true }), algorithmUri: 'a' })) as FeaturesResult;
    expect(result.columns.map((c) => c.title)).to.include('openchemlib drug-likeness score (fragment based)');
    expect(result.values[0]!.every((v) => typeof v === 'number')).to.equal(true);
  });
});
