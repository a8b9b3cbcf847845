// parsePaging / fetchPage / pagingHeaders as tables.
import { expect } from 'chai';
import { fetchPage, pagingHeaders, parsePaging } from '../../../src/http/paging.ts';
import { HttpError } from '../../../src/errors.ts';

const LIMITS = { pageSize: 10, maxPageSize: 50 };

describe('parsePaging', () => {
  const ok: Array<[Record<string, string>, { page: number; pageSize: number; offset: number; limit: number }]> = [
    [{}, { page: 0, pageSize: 10, offset: 0, limit: 10 }],
    [{ page: '2' }, { page: 2, pageSize: 10, offset: 20, limit: 10 }],
    [{ pagesize: '5', page: '3' }, { page: 3, pageSize: 5, offset: 15, limit: 5 }],
    [{ pagesize: '500' }, { page: 0, pageSize: 50, offset: 0, limit: 50 }],
    [{ max: '3' }, { page: 0, pageSize: 3, offset: 0, limit: 3 }],
    [{ max: '25', pagesize: '10', page: '2' }, { page: 2, pageSize: 10, offset: 20, limit: 5 }],
    [{ max: '25', pagesize: '10', page: '3' }, { page: 3, pageSize: 10, offset: 30, limit: 0 }],
    [{ max: '0' }, { page: 0, pageSize: 1, offset: 0, limit: 0 }],
    // Past any store's items: empty, from the largest offset a store reads.
    [{ page: '100000000', pagesize: '50' }, { page: 100000000, pageSize: 50, offset: 2 ** 31 - 1, limit: 0 }],
    [{ page: '1000000000', pagesize: '50' }, { page: 1000000000, pageSize: 50, offset: 2 ** 31 - 1, limit: 0 }],
    [{ page: '214748364', pagesize: '10' }, { page: 214748364, pageSize: 10, offset: 2147483640, limit: 10 }],
  ];
  for (const [query, expected] of ok) {
    it(`${JSON.stringify(query)} → ${JSON.stringify(expected)}`, () => {
      expect(parsePaging(query, LIMITS)).to.include(expected);
    });
  }

  const bad: Array<[Record<string, string>, string]> = [
    [{ page: '-1' }, 'page'], [{ page: 'x' }, 'page'], [{ page: '1e3' }, 'page'], [{ pagesize: '0' }, 'pagesize'],
    [{ pagesize: '2.5' }, 'pagesize'], [{ max: '-3' }, 'max'], [{ max: '' }, 'max'],
    [{ page: '1000000001' }, 'page'], [{ pagesize: '1e30' }, 'pagesize'], [{ pagesize: '9007199254740993' }, 'pagesize'],
  ];
  for (const [query, param] of bad) {
    it(`${JSON.stringify(query)} → 400 naming ${param}`, () => {
      const err = (() => { try { parsePaging(query, LIMITS); } catch (e) { return e; } })() as HttpError;
      expect(err).to.be.instanceOf(HttpError);
      expect(err.status).to.equal(400);
      expect(err.code.value).to.match(/#InvalidParameter$/);
      expect(err.message).to.match(new RegExp(`^parameter ${param}=.*expected an integer from \\d+ to \\d+$`));
    });
  }
});

describe('fetchPage and pagingHeaders', () => {
  const data = Array.from({ length: 23 }, (_, i) => i);
  const source = (limit: number, offset: number) => data.slice(offset, offset + limit);

  it('asks for one more to know whether there is a next page', async () => {
    expect(await fetchPage(parsePaging({}, LIMITS), source)).to.deep.equal({ items: data.slice(0, 10), hasMore: true });
    expect(await fetchPage(parsePaging({ page: '2' }, LIMITS), source)).to.deep.equal({ items: data.slice(20), hasMore: false });
    expect(await fetchPage(parsePaging({ max: '10', pagesize: '5', page: '1' }, LIMITS), source)).to.deep.equal({ items: data.slice(5, 10), hasMore: false });
  });

  it('links first, prev and next, and counts the total', () => {
    const paging = parsePaging({ page: '1', pagesize: '5' }, LIMITS);
    const h = pagingHeaders('http://x.org/feature?sameas=a%26b&page=1&pagesize=5', paging, true, 23);
    expect(h.Link).to.equal('<http://x.org/feature?sameas=a%26b&page=0&pagesize=5>; rel="first", <http://x.org/feature?sameas=a%26b&page=0&pagesize=5>; rel="prev", <http://x.org/feature?sameas=a%26b&page=2&pagesize=5>; rel="next"');
    expect(h['X-Total-Count']).to.equal('23');
    expect(pagingHeaders('http://x.org/a', parsePaging({ max: '4' }, LIMITS), false, 23)['X-Total-Count']).to.equal('4');
  });

  it('links without the token parameters and user-info of the request', () => {
    const paging = parsePaging({ page: '1' }, LIMITS);
    const h = pagingHeaders('http://u:pw@x.org/feature?subjectid=XYZ&sameas=a&TOKEN=XYZ&page=1&access_token=XYZ', paging, true);
    expect(h.Link).to.equal('<http://x.org/feature?sameas=a&page=0&pagesize=10>; rel="first", <http://x.org/feature?sameas=a&page=0&pagesize=10>; rel="prev", <http://x.org/feature?sameas=a&page=2&pagesize=10>; rel="next"');
  });
});
