import { expect } from 'chai';
import { searchQueryOf, isSearch, type SearchQuery } from '../../../src/search/params.ts';
import { HttpError } from '../../../src/errors.ts';
import { spellings } from '../../../src/search/run.ts';

describe('search parameters', () => {
  const good: Array<[Record<string, string>, SearchQuery]> = [
    [{ search: ' CCO ' }, { mode: 'exact', text: 'CCO' }],
    [{ similarity: 'CCO' }, { mode: 'similarity', smiles: 'CCO', threshold: 0.8 }],
    [{ similarity: 'CCO', threshold: '1' }, { mode: 'similarity', smiles: 'CCO', threshold: 1 }],
    [{ similarity: 'CCO', threshold: '0.05' }, { mode: 'similarity', smiles: 'CCO', threshold: 0.05 }],
    [{ smarts: '[#6]=O' }, { mode: 'substructure', kind: 'smarts', text: '[#6]=O' }],
    [{ substructure: 'c1ccccc1' }, { mode: 'substructure', kind: 'smiles', text: 'c1ccccc1' }],
  ];
  for (const [query, expected] of good) {
    it(`reads ${JSON.stringify(query)}`, () => {
      expect(isSearch(query)).to.equal(true);
      expect(searchQueryOf(query)).to.deep.equal(expected);
    });
  }

  const bad: Array<[Record<string, string | string[]>, RegExp]> = [
    [{ similarity: 'CCO', threshold: '0' }, /threshold must be a number in \(0, 1\], got "0"/],
    [{ similarity: 'CCO', threshold: '-0.5' }, /threshold/],
    [{ similarity: 'CCO', threshold: '1.01' }, /threshold/],
    [{ similarity: 'CCO', threshold: 'high' }, /threshold/],
    [{ similarity: 'CCO', threshold: ['0.5', '0.6'] }, /threshold is given 2 times/],
    [{ smarts: '  ' }, /smarts is empty/],
    [{ search: 'CCO', smarts: 'C' }, /give one of/],
  ];
  for (const [query, message] of bad) {
    it(`400 for ${JSON.stringify(query)}`, () => {
      try {
        searchQueryOf(query);
        expect.fail('expected a 400');
      } catch (e) {
        expect(e).to.be.instanceOf(HttpError);
        expect((e as HttpError).status).to.equal(400);
        expect((e as HttpError).message).to.match(message);
      }
    });
  }

  it('a request without search parameters is not a search', () => {
    expect(isSearch({ page: '1', media: 'text/uri-list' })).to.equal(false);
  });
});

describe('name spellings of exact search', () => {
  it('looks a name up as given, lower, upper, capitalised and title case', () => {
    expect(spellings('acetic acid')).to.deep.equal(['acetic acid', 'acetic acid', 'ACETIC ACID', 'Acetic acid', 'Acetic Acid']);
    expect(spellings('64-17-5')).to.include('64-17-5');
  });
});
