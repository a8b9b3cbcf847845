import { expect } from 'chai';
import { RdfXmlParser } from 'rdfxml-streaming-parser';
import { startApp, type TestApp } from '../helpers/app.ts';

export function parseRdfXmlStrict(text: string): Promise<number> {
  return new Promise((resolve, reject) => {
    let n = 0;
    const p = new RdfXmlParser();
    p.on('data', () => n++);
    p.on('error', reject);
    p.on('end', () => resolve(n));
    p.write(text);
    p.end();
  });
}

describe('service description and generic errors', () => {
  let app: TestApp;
  before(async () => { app = await startApp(); });
  after(async () => { await app.close(); });

  it('GET / defaults to RDF/XML listing the collections', async () => {
    const res = await fetch(app.url + '/');
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^application\/rdf\+xml/);
    const body = await res.text();
    expect(body).to.contain('xmlns:ot="http://www.opentox.org/api/1.1#"');
    expect(body).to.contain(`rdf:resource="${app.url}/compound"`);
    expect(await parseRdfXmlStrict(body)).to.be.greaterThan(10);
  });

  const table: Array<[string, string]> = [
    ['text/uri-list', 'text/uri-list'],
    ['text/turtle', 'text/turtle'],
    ['application/n-triples', 'application/n-triples'],
    ['text/plain', 'text/plain'],
    ['text/n3', 'text/n3'],
    ['application/ld+json', 'application/ld+json'],
    ['', 'application/rdf+xml'],
    ['*/*', 'application/rdf+xml'],
    ['image/png', 'application/rdf+xml'],
    ['text/*', 'text/turtle'],
    ['text/turtle;q=0.5, application/ld+json;q=0.9', 'application/ld+json'],
  ];
  for (const [accept, type] of table) {
    it(`Accept "${accept}" answers ${type}`, async () => {
      const res = await fetch(app.url + '/', { headers: accept ? { Accept: accept } : {} });
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.match(new RegExp('^' + type.replace('+', '\\+')));
      const body = await res.text();
      if (type !== 'text/uri-list') expect(body).to.contain('compound');
    });
  }

  it('GET / as uri-list lists the collections', async () => {
    const res = await fetch(app.url + '/', { headers: { Accept: 'text/uri-list' } });
    const uris = (await res.text()).trim().split(/\r?\n/);
    expect(uris).to.include(`${app.url}/task`);
    expect(uris).to.include(`${app.url}/algorithm`);
  });

  it('JSON-LD is compacted with a context', async () => {
    const res = await fetch(app.url + '/', { headers: { Accept: 'application/ld+json' } });
    const doc = (await res.json()) as Record<string, unknown>;
    expect(doc['@context']).to.be.an('object');
    expect(JSON.stringify(doc)).to.contain('"dc:title"');
  });

  it('an unknown route answers 404 as an error report', async () => {
    const res = await fetch(app.url + '/no/such/thing');
    expect(res.status).to.equal(404);
    const body = await res.text();
    expect(body).to.contain('ot:ErrorReport');
    expect(body).to.contain('errors.owl#NotFound');
  });

  it('an unsupported method answers 405 with Allow and a report', async () => {
    const res = await fetch(app.url + '/', { method: 'DELETE', headers: { Accept: 'text/plain' } });
    expect(res.status).to.equal(405);
    expect(res.headers.get('allow')).to.contain('GET');
    expect(await res.text()).to.match(/^405 MethodNotAllowed/);
  });
});
