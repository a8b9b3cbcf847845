// text/html is one more representation (SPEC §1 rule 5 keeps RDF/XML the default): a
// browser's Accept gets a page, and every Accept a program sends keeps the answer it had
// before pages existed. The table below was checked against the service without pages.
import { expect } from 'chai';
import { startApp, type TestApp } from '../helpers/app.ts';
import { uploadDataset } from '../helpers/datasets.ts';

const BROWSER = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const RDF_XML = 'application/rdf+xml';
const SDF = 'chemical/x-mdl-sdfile';

/** [path, Accept, media type answered]; '' is no Accept header. */
const TABLE: Array<[string, string, string]> = [];
for (const path of ['/', '/dataset', '/dataset/1', '/algorithm', '/algorithm/knn', '/compound', '/feature', '/task', '/validation', '/nothing-here']) {
  TABLE.push(
    [path, '', RDF_XML],
    [path, '*/*', RDF_XML],
    [path, RDF_XML, RDF_XML],
    [path, 'application/xml', RDF_XML],
    [path, 'text/*', 'text/turtle'],
    [path, 'text/turtle', 'text/turtle'],
    [path, 'application/ld+json', 'application/ld+json'],
    [path, 'text/plain', 'text/plain'],
    [path, 'application/xml;q=0.9,*/*;q=0.8', RDF_XML],
  );
}
TABLE.push(
  ['/dataset/1', 'text/csv', 'text/csv'],
  ['/dataset/1', 'text/uri-list', 'text/uri-list'],
  ['/compound', 'text/uri-list', 'text/uri-list'],
  ['/compound/1', '', SDF],
  ['/compound/1', '*/*', SDF],
  ['/compound/1', 'application/xml', SDF],
  ['/compound/1', RDF_XML, RDF_XML],
  ['/compound/1', 'image/png', 'image/png'],
  ['/compound/1', 'image/*', 'image/png'],
  ['/compound/1', 'image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8', 'image/svg+xml'],
  ['/compound/1', 'chemical/x-daylight-smiles', 'chemical/x-daylight-smiles'],
  ['/compound/1/image', BROWSER, 'image/png'],
  ['/compound?search=CCO', '', RDF_XML],
  ['/compound?search=CCO', 'text/csv', 'text/csv'],
);
// What pages add: HTML where Accept ranks text/html first (a browser, or ?media=text/html).
for (const path of ['/', '/dataset', '/dataset/1', '/algorithm', '/algorithm/knn', '/compound', '/compound/1', '/feature', '/task', '/validation', '/compound?search=CCO', '/dataset/1?media=text/html']) {
  TABLE.push([path, BROWSER, 'text/html']);
}
TABLE.push(['/', 'text/html', 'text/html'], ['/?media=text/html', '', 'text/html'], ['/nothing-here', BROWSER, 'text/html']);

describe('pages: content negotiation keeps every current answer and adds text/html', function () {
  this.timeout(120_000);
  let app: TestApp;
  before(async () => {
    app = await startApp();
    const up = await uploadDataset(app, 'SMILES,logS\nCCO,1\nCCCO,2\n', 'text/csv');
    expect(up.body).to.equal(app.url + '/dataset/1');
  });
  after(async () => { await app.close(); });

  for (const [path, accept, type] of TABLE) {
    it(`GET ${path} with Accept "${accept}" answers ${type}`, async () => {
      const res = await fetch(app.url + path, { headers: accept ? { Accept: accept } : {} });
      await res.arrayBuffer();
      expect(res.status).to.equal(path === '/nothing-here' ? 404 : 200);
      expect(res.headers.get('content-type')?.split(';')[0]).to.equal(type);
      if (type === 'text/html' || path === '/' || path.startsWith('/dataset/1')) expect(res.headers.get('vary') ?? '').to.match(/Accept/i);
    });
  }
});
