// Paging parameters past the data or out of range answer an empty page or a 400 report on
// every list, in every representation, never 500 (a page past 2^31 items used to reach the
// store as an OFFSET it cannot parse).
import { expect } from 'chai';
import { startApp, type TestApp } from '../helpers/app.ts';
import { uploadDataset } from '../helpers/datasets.ts';

const HUGE_PAGES = ['22222222', '1000000000'];
const OUT_OF_RANGE = ['1000000001', '2147483648', '99999999999999999999', '-1', 'abc', '', '1e30', '2.5', '0x10'];
const SIZES = ['1e30', '9007199254740993', '-5', '0', 'x'];

describe('paging past the data or out of range', function () {
  this.timeout(120_000);
  let app: TestApp;
  let lists: string[];

  before(async () => {
    app = await startApp();
    const dataset = await uploadDataset(app, 'SMILES,logS\nCCO,1\nCCCO,2\n', 'text/csv');
    expect(dataset.status).to.equal(200);
    lists = ['/compound', '/dataset', '/feature', '/model', '/algorithm', '/task', '/validation', new URL(dataset.body).pathname, '/compound?search=CCO'];
  });
  after(() => app?.close());

  const get = (list: string, query: string, accept: string) => fetch(`${app.url}${list}${list.includes('?') ? '&' : '?'}${query}`, { headers: { Accept: accept } });

  for (const accept of ['text/uri-list', 'text/html']) {
    it(`a page past the data is an empty page (${accept})`, async () => {
      for (const list of lists) {
        for (const page of HUGE_PAGES) {
          for (const query of [`page=${page}`, `page=${page}&pagesize=100000`, `page=${page}&pagesize=1`, `page=${page}&max=5`, `page=${page}&pagesize=100000000000`]) {
            const res = await get(list, query, accept);
            const body = await res.text();
            expect(res.status, `${list} ${query}: ${body.slice(0, 300)}`).to.equal(200);
            if (accept === 'text/uri-list' && !list.startsWith('/dataset/')) expect(body.trim(), `${list} ${query}`).to.equal('');
            if (accept === 'text/html') expect(body, `${list} ${query}`).to.match(/^<!DOCTYPE html>/);
          }
        }
      }
    });

    it(`a page or page size out of range is a 400 naming it (${accept})`, async () => {
      for (const list of lists) {
        for (const [name, values] of [['page', OUT_OF_RANGE], ['pagesize', SIZES]] as const) {
          for (const value of values) {
            const res = await get(list, `${name}=${encodeURIComponent(value)}`, accept);
            const body = await res.text();
            expect(res.status, `${list} ${name}=${value}: ${body.slice(0, 300)}`).to.equal(400);
            if (accept === 'text/uri-list') expect(body, `${list} ${name}=${value}`).to.match(new RegExp(`^400 InvalidParameter: parameter ${name}=`));
          }
        }
      }
    });
  }

  it('a dataset past its last entry has none of them', async () => {
    const dataset = lists[7]!;
    const res = await get(dataset, 'page=22222222&pagesize=10', 'text/csv');
    expect(res.status).to.equal(200);
    expect((await res.text()).trim().split(/\r?\n/)).to.have.length(1);
  });
});
