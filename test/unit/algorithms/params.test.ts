import { expect } from 'chai';
import { allowedRange, parseParam, readParams, withDefaults, type ParamDef } from '../../../src/algorithms/params.ts';
import { HttpError } from '../../../src/errors.ts';

const support: ParamDef = { name: 'min_support', type: 'float', min: 0, minExclusive: true, max: 1, default: 0.05, description: '' };
const k: ParamDef = { name: 'k', type: 'int', min: 1, default: 5, description: '' };
const flag: ParamDef = { name: 'MW', type: 'boolean', default: true, description: '' };
const method: ParamDef = { name: 'method', type: 'string', choices: ['minmax', 'zscore'], default: 'minmax', description: '' };
const smarts: ParamDef = { name: 'smarts', type: 'list', mandatory: true, description: '' };

function error(fn: () => unknown): HttpError {
  try {
    fn();
  } catch (e) {
    return e as HttpError;
  }
  throw new Error('expected an error');
}

describe('algorithm parameters', () => {
  const good: Array<[ParamDef, string[], unknown]> = [
    [support, ['1'], 1],
    [support, ['0.25'], 0.25],
    [k, ['1'], 1],
    [flag, ['false'], false],
    [flag, ['TRUE'], true],
    [method, ['zscore'], 'zscore'],
    [smarts, ['c1ccccc1', '[N,O]'], ['c1ccccc1', '[N,O]']],
    [smarts, ['[OX2H]\nC=O'], ['[OX2H]', 'C=O']],
  ];
  for (const [p, raw, value] of good) {
    it(`${p.name}=${JSON.stringify(raw)} reads as ${JSON.stringify(value)}`, () => {
      expect(parseParam(p, raw)).to.deep.equal(value);
    });
  }

  const bad: Array<[ParamDef, string, string]> = [
    [support, '0', 'min_support'],
    [support, '1.5', 'min_support'],
    [support, 'abc', 'min_support'],
    [k, '0', 'k'],
    [k, '2.5', 'k'],
    [flag, 'maybe', 'MW'],
    [method, 'log', 'method'],
  ];
  for (const [p, raw, name] of bad) {
    it(`${name}=${raw} is a 400 naming the parameter and the allowed range`, () => {
      const e = error(() => parseParam(p, [raw]));
      expect(e.status).to.equal(400);
      expect(e.message).to.contain(name).and.contain(allowedRange(p));
      expect(e.code.value).to.match(/InvalidParameter$/);
    });
  }

  it('writes ranges readably', () => {
    expect(allowedRange(support)).to.equal('a number in (0,1]');
    expect(allowedRange(k)).to.equal('an integer in [1,∞)');
  });

  it('an open interval refuses both ends', () => {
    const share: ParamDef = { name: 'split_ratio', type: 'float', min: 0, minExclusive: true, max: 1, maxExclusive: true, description: '' };
    expect(allowedRange(share)).to.equal('a number in (0,1)');
    for (const raw of ['0', '1', '-0.2', '1.5']) expect(error(() => parseParam(share, [raw])).message).to.contain(`split_ratio="${raw}"`).and.contain('(0,1)');
    expect(parseParam(share, ['0.5'])).to.equal(0.5);
  });

  it('a value that switches the step off is allowed beside the range, and nothing else outside it', () => {
    const folds: ParamDef = { name: 'folds', type: 'int', min: 2, max: 20, off: 0, default: 5, description: '' };
    expect(allowedRange(folds)).to.equal('0 (off) or an integer in [2,20]');
    expect(parseParam(folds, ['0'])).to.equal(0);
    expect(parseParam(folds, ['2'])).to.equal(2);
    for (const raw of ['1', '-1', '21', '0.5']) expect(error(() => parseParam(folds, [raw])).message).to.contain(`folds="${raw}"`).and.contain('0 (off) or an integer in [2,20]');
  });

  it('reads only posted parameters, then fills defaults and refuses a missing mandatory one', () => {
    const explicit = readParams([support, k], (n) => (n === 'k' ? ['3'] : []));
    expect(explicit).to.deep.equal({ k: 3 });
    expect(withDefaults([support, k], explicit)).to.deep.equal({ min_support: 0.05, k: 3 });
    expect(error(() => withDefaults([smarts], {})).code.value).to.match(/MissingParameter$/);
  });
  it('an unknown posted name is a 400 that names it and lists the known parameters', () => {
    const form: Record<string, string[]> = { dataset_uri: ['x'], kk: ['3'] };
    const e = error(() => readParams([k, flag], (n) => form[n] ?? [], Object.keys(form)));
    expect(e.status).to.equal(400);
    expect(e.message).to.contain('unknown parameter kk').and.to.contain('k, MW');
    expect(readParams([k, flag], (n) => ({ ...form, kk: [] })[n] ?? [], ['dataset_uri', 'k', 'subjectid'])).to.deep.equal({});
  });
});
