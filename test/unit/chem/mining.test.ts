// Property of pattern mining: every mined fragment is a SMARTS, and its value on a
// compound is exactly what a fresh SMARTS match by RDKit (src/chem) says, on every compound
// of a real dataset (hamster carcinogenicity, with aromatic heterocycles) plus compounds
// without bonds, which have every fragment absent (0), not unknown.
import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { initChem, parseStructure } from '../../../src/chem/index.ts';
import { checkSmarts, countMatches } from '../../../src/chem/smartsCount.ts';
import { BadRequest } from '../../../src/errors.ts';
import { frequentMining, supervisedMining } from '../../../src/algorithms/mining/frequent.ts';
import type { FeaturesResult, RunInput } from '../../../src/algorithms/types.ts';
import type { Table } from '../../../src/algorithms/table.ts';
import { sharedData } from '../../helpers/data.ts';

/** Rows of hamster_carcinogenicity.csv as the service stores them (canonical SMILES), and extras. */
function hamster(): Table {
  const lines = readFileSync(sharedData('opentox-test', 'hamster_carcinogenicity.csv'), 'utf8').split(/\r?\n/).slice(1).filter(Boolean);
  const rows = lines.map((l) => l.split(','));
  const extras: Array<[string, string]> = [['[Na+].[Cl-]', 'false'], ['C', 'false'], ['[Fe]', 'false'], ['O', 'false']];
  const all: Array<[string, string]> = [...rows.map(([s, v]): [string, string] => [parseStructure(s!, 'smiles').smiles, v!.trim()]), ...extras];
  return {
    datasetUri: 'http://test/dataset/1',
    compounds: all.map((_, i) => `http://test/compound/${i + 1}`),
    smiles: all.map(([s]) => s),
    columns: [{ uri: 'http://test/feature/1', title: 'Hamster Carcinogenicity', numeric: false }],
    values: all.map(([, v]) => [v]),
  };
}

async function checkAgainstSmarts(table: Table, result: FeaturesResult): Promise<string[]> {
  const patterns = result.columns.map((c) => c.title);
  const counts = await countMatches(table.smiles, patterns);
  const wrong: string[] = [];
  table.smiles.forEach((smiles, i) => patterns.forEach((p, j) => {
    const expected = counts[i]![j] === null ? null : counts[i]![j]! > 0 ? 1 : 0;
    if (result.values[i]![j] !== expected) wrong.push(`${smiles} ${p}: mined ${String(result.values[i]![j])}, SMARTS ${String(expected)}`);
  }));
  return wrong;
}

describe('SMARTS parameters', () => {
  it('a SMARTS that does not parse is refused with what RDKit found and where, and RDKit prints nothing', async () => {
    // RDKit prints its log to stderr once a log capture has come and gone, as every parse makes one.
    await initChem(['smiles']);
    parseStructure('CCO', 'smiles');
    const printed: string[] = [];
    const write = process.stderr.write.bind(process.stderr);
    process.stderr.write = ((chunk: string | Uint8Array) => (printed.push(String(chunk)), true)) as typeof process.stderr.write;
    let error: unknown;
    try {
      await checkSmarts(['[#6]', 'C=', '[OH]'], 'smarts');
    } catch (e) {
      error = e;
    } finally {
      process.stderr.write = write;
    }
    expect(error).to.be.instanceOf(BadRequest);
    expect((error as Error).message).to.equal('parameter smarts: "C=" is not valid SMARTS: syntax error while parsing: C= (at position 2)');
    expect(printed).to.deep.equal([]);
    await checkSmarts(['[#6]', '[OH]', 'c1ccccc1'], 'smarts');
  });
});

describe('mining: fragments agree with SMARTS matching (RDKit)', function () {
  this.timeout(300_000);
  let table: Table;
  before(async () => {
    await initChem();
    table = hamster();
  });

  it('fsm: every value of every fragment on every compound', async () => {
    const input: RunInput = { table, params: { min_support: 0.02, max_bonds: 5, max_features: 100_000 }, algorithmUri: 'http://test/algorithm/fsm' };
    const result = (await frequentMining.run(input)) as FeaturesResult;
    expect(result.columns.length).to.be.above(100);
    expect(await checkAgainstSmarts(table, result)).to.deep.equal([]);
  });

  it('fsm-supervised: every value of every fragment on every compound', async () => {
    const input: RunInput = { table, target: 0, params: { min_support: 0.02, max_bonds: 5, max_features: 100_000, significance: 0.5 }, algorithmUri: 'http://test/algorithm/fsm-supervised' };
    const result = (await supervisedMining.run(input)) as FeaturesResult;
    expect(result.columns.length).to.be.above(10);
    expect(await checkAgainstSmarts(table, result)).to.deep.equal([]);
  });

  it('a compound without bonds has 0 for every fragment; one without structure has null', async () => {
    const t: Table = { ...table, smiles: ['CCO', 'CCN', '[Na+].[Cl-]', 'C', ''], compounds: ['a', 'b', 'c', 'd', 'e'].map((x) => `http://test/compound/${x}`), values: [[null], [null], [null], [null], [null]] };
    const result = (await frequentMining.run({ table: t, params: { min_support: 0.2, max_bonds: 2, max_features: 100 }, algorithmUri: 'x' })) as FeaturesResult;
    expect(result.columns.map((c) => c.title)).to.include('[#6;A]-[#6;A]');
    expect(result.values[2]!.every((v) => v === 0)).to.equal(true);
    expect(result.values[3]!.every((v) => v === 0)).to.equal(true);
    expect(result.values[4]!.every((v) => v === null)).to.equal(true);
  });
});
