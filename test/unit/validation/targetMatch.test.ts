import { expect } from 'chai';
import { matchTarget } from '../../../src/validation/targetMatch.ts';

const target = { uri: 'http://a/feature/1', title: 'LC50', units: 'mmol', sameAs: 'http://echa/LC50' };

describe('matchTarget: URI, else owl:sameAs, else title and units', () => {
  const table: Array<[string, Parameters<typeof matchTarget>[1], ReturnType<typeof matchTarget>]> = [
    ['the same URI, before a title match', [{ uri: 'http://b/feature/9', title: 'LC50', units: 'mmol' }, { uri: target.uri, title: 'other' }], { index: 1, match: 'uri' }],
    ['a column owl:sameAs the target', [{ uri: 'http://b/feature/9', title: 'x', sameAs: target.uri }], { index: 0, match: 'sameAs' }],
    ['the column the target is owl:sameAs', [{ uri: 'http://echa/LC50', title: 'x' }], { index: 0, match: 'sameAs' }],
    ['a shared equivalent', [{ uri: 'http://b/feature/9', title: 'x', sameAs: 'http://echa/LC50' }], { index: 0, match: 'sameAs' }],
    ['the same title and units (case and spaces aside)', [{ uri: 'http://b/feature/9', title: ' lc50 ', units: 'MMOL' }], { index: 0, match: 'title' }],
    ['the same title in other units: none', [{ uri: 'http://b/feature/9', title: 'LC50', units: 'mg/L' }], undefined],
    ['nothing alike: none', [{ uri: 'http://b/feature/9', title: 'EC50' }], undefined],
  ];
  for (const [name, columns, expected] of table) {
    it(name, () => expect(matchTarget(target, columns)).to.deep.equal(expected));
  }
});
