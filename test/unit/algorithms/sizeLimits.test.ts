// Parameters bounded by the data: counted on the prediction_feature column, refused only
// when the client sent them, per class when the folds are stratified.
import { expect } from 'chai';
import { checkAgainstData, targetCounts } from '../../../src/algorithms/sizeLimits.ts';
import type { ParamDef } from '../../../src/algorithms/params.ts';
import type { Table } from '../../../src/algorithms/table.ts';
import { ATYPE } from '../../../src/rdf/vocab.ts';
import { HttpError } from '../../../src/errors.ts';

const table = (values: Array<string | number | null>, nominal = false): Table => ({
  datasetUri: 'http://x/dataset/1', compounds: values.map((_, i) => `http://x/compound/${i}`), smiles: values.map(() => ''),
  columns: [{ uri: 'http://x/feature/y', title: 'y', numeric: !nominal, nominal }], values: values.map((v) => [v]),
});
const defs: ParamDef[] = [
  { name: 'folds', type: 'int', min: 2, max: 100, limitedBy: 'folds', description: '' },
  { name: 'k', type: 'int', min: 1, max: 1000, limitedBy: 'measured', description: '' },
];
const both = [ATYPE.Classification, ATYPE.Regression];
const refusal = (f: () => void): HttpError | undefined => {
  try { f(); } catch (e) { if (e instanceof HttpError) return e; throw e; }
  return undefined;
};

describe('size limits', () => {
  it('counts measured rows and the smallest class', () => {
    expect(targetCounts(table([1, 2, null, 'x', 3]), 0, false)).to.deep.equal({ measured: 3 });
    expect(targetCounts(table(['a', 'b', 'b', null, 'a', 'b', 'c']), 0, true)).to.deep.equal({ measured: 6, smallest: { label: 'c', size: 1 } });
  });

  it('refuses a sent value above the limit, naming parameter, value and limit', () => {
    const t = table([1.5, 2.5, 3.5, 4.5, null]);
    const e = refusal(() => checkAgainstData(both, defs, { folds: 5, k: 2 }, ['folds'], t, 'http://x/feature/y'));
    expect(e?.status).to.equal(400);
    expect(e?.code.value).to.match(/InvalidParameter$/);
    expect(e?.message).to.contain('folds=5').and.contain('limit is 4').and.contain('http://x/feature/y');
    expect(refusal(() => checkAgainstData(both, defs, { folds: 4, k: 5 }, ['folds', 'k'], t, 'http://x/feature/y'))?.message).to.contain('k=5');
    expect(refusal(() => checkAgainstData(both, defs, { folds: 4, k: 4 }, ['folds', 'k'], t, 'http://x/feature/y'))).to.equal(undefined);
  });

  it('leaves defaults alone', () => {
    expect(refusal(() => checkAgainstData(both, defs, { folds: 50, k: 50 }, [], table([1.5, 2.5]), 'http://x/feature/y'))).to.equal(undefined);
  });

  it('bounds stratified folds by the smallest class, unstratified by the compounds', () => {
    const t = table(['a', 'a', 'b', 'b', 'b', 'b'], true);
    expect(refusal(() => checkAgainstData(both, defs, { folds: 3 }, ['folds'], t, 'http://x/feature/y'))?.message).to.contain('limit is 2').and.contain('smallest class ("a")');
    expect(refusal(() => checkAgainstData(both, defs, { folds: 3 }, ['folds'], t, 'http://x/feature/y', { stratified: false }))).to.equal(undefined);
    // k is bounded by the training set, stratified or not.
    expect(refusal(() => checkAgainstData(both, defs, { k: 6 }, ['k'], t, 'http://x/feature/y'))).to.equal(undefined);
  });
});
