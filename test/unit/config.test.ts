import { expect } from 'chai';
import { loadConfig, searchMoleculeCache } from '../../src/config.ts';

const GiB = 2 ** 30;

describe('SEARCH_MOLECULE_CACHE', () => {
  const cases: Array<[string, Record<string, string>, number, number]> = [
    // [name, environment, total memory, molecules each matcher keeps]
    ['auto by default: 2 matchers share an eighth of 16 GiB', { SEARCH_WORKERS: '2' }, 16 * GiB, Math.floor(GiB / 12_500)],
    ['auto: 4 matchers share an eighth of 8 GiB', { SEARCH_WORKERS: '4', SEARCH_MOLECULE_CACHE: 'auto' }, 8 * GiB, Math.floor(GiB / 4 / 12_500)],
    ['auto: at most 3 GiB a matcher', { SEARCH_WORKERS: '2' }, 256 * GiB, Math.floor((3 * GiB) / 12_500)],
    ['a number wins', { SEARCH_WORKERS: '2', SEARCH_MOLECULE_CACHE: '5000' }, 16 * GiB, 5000],
    ['0 turns it off', { SEARCH_MOLECULE_CACHE: '0' }, 16 * GiB, 0],
  ];
  for (const [name, env, memory, kept] of cases) {
    it(name, () => {
      expect(searchMoleculeCache(loadConfig([], env), memory)).to.equal(kept);
    });
  }

  it('auto from the memory of this machine keeps some', () => {
    expect(searchMoleculeCache(loadConfig([], {}))).to.be.greaterThan(0);
  });

  it('anything else is refused, naming the option and the value', () => {
    expect(() => loadConfig([], { SEARCH_MOLECULE_CACHE: 'lots' })).to.throw(/SEARCH_MOLECULE_CACHE: expected auto or a non-negative integer, got "lots"/);
  });
});
