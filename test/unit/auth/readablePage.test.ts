// Paging a filtered list (AUTH_READ=owner): pages and "more" count only the items kept.
import { expect } from 'chai';
import { readablePage } from '../../../src/auth/readAccess.ts';

const ITEMS = Array.from({ length: 1200 }, (_, i) => `u${i}`);
const fetch = async (limit: number, offset: number) => ITEMS.slice(offset, offset + limit);
const everyThird = async (uri: string) => Number(uri.slice(1)) % 3 === 0;

describe('readablePage', () => {
  const table: Array<[string, number, number, string[], boolean]> = [
    ['the first page', 0, 3, ['u0', 'u3', 'u6'], true],
    ['a later page', 3, 2, ['u9', 'u12'], true],
    ['the last kept items, past a chunk of 500', 398, 2, ['u1194', 'u1197'], false],
    ['a page beyond the kept items', 400, 10, [], false],
    ['no items asked for', 0, 0, [], true],
  ];
  for (const [what, offset, limit, uris, more] of table) {
    it(`filtered: ${what}`, async () => {
      expect(await readablePage({ offset, limit }, fetch, everyThird)).to.deep.equal({ uris, more });
    });
  }

  it('without a filter asks the store for one page and one item more', async () => {
    const asked: Array<[number, number]> = [];
    const page = await readablePage({ offset: 10, limit: 2 }, async (l, o) => { asked.push([l, o]); return fetch(l, o); });
    expect(page).to.deep.equal({ uris: ['u10', 'u11'], more: true });
    expect(asked).to.deep.equal([[3, 10]]);
  });
});
