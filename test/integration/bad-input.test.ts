// Bad input gets a clear error and loses nothing: malformed RDF in each syntax
// (line/column), wrong Content-Type, unknown Accept, invalid IRI, empty and huge bodies; each
// answers its 4xx report and leaves the store as it was. Driven through POST /ontology.
import { expect } from 'chai';
import { startApp, type TestApp } from '../helpers/app.ts';
import { parseRdfXmlStrict } from '../helpers/rdf.ts';
import { ERR, OT } from '../../src/rdf/vocab.ts';
import { storeDump, storeSize } from '../helpers/store.ts';

const RDFXML = '<?xml version="1.0"?>\n<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\n  <rdf:Description rdf:about="http://e.org/a">\n    <x:p>1</x:p>\n  </rdf:Description>\n</rdf:RDF>\n';

const TABLE: Array<{ name: string; type?: string; body: string | Uint8Array; status: number; text: RegExp }> = [
  { name: 'malformed RDF/XML', type: 'application/rdf+xml', body: RDFXML, status: 400, text: /^400 RDFSyntaxError: malformed RDF\/XML at line 4, column \d+: unbound namespace prefix/ },
  { name: 'malformed Turtle', type: 'text/turtle', body: '@prefix e: <http://e.org/> .\ne:a e:b e:c ;\n  e:d .\n', status: 400, text: /^400 RDFSyntaxError: malformed Turtle at line 3: / },
  { name: 'malformed N-Triples', type: 'application/n-triples', body: '<http://e.org/a> <http://e.org/b> <http://e.org/c> .\n<http://e.org/a> <http://e.org/b> "x .\n', status: 400, text: /^400 RDFSyntaxError: malformed N-Triples at line 2, column 35: / },
  { name: 'malformed N3', type: 'text/n3', body: '@prefix e: <http://e.org/>.\n\ne:a e:b [ e:c .\n', status: 400, text: /^400 RDFSyntaxError: malformed N3 at line 3: / },
  { name: 'malformed JSON-LD', type: 'application/ld+json', body: '{\n  "@id": "http://e.org/a",\n  "http://e.org/b": 1,\n}', status: 400, text: /^400 RDFSyntaxError: malformed JSON-LD at line 4, column 1: / },
  { name: 'an invalid IRI', type: 'text/turtle', body: '<http://e.org/d?feature_uris[]=1> <http://e.org/b> "x" .', status: 400, text: /^400 InvalidIRI: not a valid absolute IRI: "http:\/\/e.org\/d\?feature_uris\[\]=1"\n(.*\n)*.*%5B/ },
  { name: 'a wrong Content-Type', type: 'text/csv', body: 'a,b\n1,2\n', status: 400, text: /^400 UnsupportedMediaType: unsupported Content-Type "text\/csv"\n.*\n\s+Supported here: application\/rdf\+xml, text\/turtle/ },
  { name: 'no Content-Type', body: new TextEncoder().encode('<http://e.org/a> <http://e.org/b> "x" .'), status: 400, text: /^400 UnsupportedMediaType: unsupported Content-Type "\(none\)"/ },
  { name: 'an empty body', type: 'text/turtle', body: '', status: 400, text: /^400 BadRequest: empty body: expected RDF/ },
  { name: 'an RDF body with no triples', type: 'text/turtle', body: '@prefix e: <http://e.org/> .\n', status: 400, text: /^400 BadRDFContent: the ontology holds no triples/ },
  { name: 'a multipart body without a file', type: 'multipart/form-data; boundary=XX', body: '--XX\r\nContent-Disposition: form-data; name="title"\r\n\r\nT\r\n--XX--\r\n', status: 400, text: /^400 BadRequest: multipart body has no file part/ },
];

describe('bad input answers a clear report and leaves the store unchanged', () => {
  let app: TestApp;
  before(async () => { app = await startApp({ bodyLimit: 4096 }); });
  after(async () => { await app.close(); });

  for (const { name, type, body, status, text } of TABLE) {
    it(`POST /ontology with ${name} → ${status}`, async () => {
      const size = (await storeSize(app.deps.store));
      const dump = (await storeDump(app.deps.store));
      const res = await fetch(app.url + '/ontology', { method: 'POST', body: body as BodyInit, headers: { Accept: 'text/plain', ...(type ? { 'Content-Type': type } : {}) } });
      expect(res.status).to.equal(status);
      expect(res.headers.get('content-type')).to.match(/^text\/plain/);
      expect(await res.text()).to.match(text);
      expect((await storeSize(app.deps.store))).to.equal(size);
      expect((await storeDump(app.deps.store))).to.equal(dump);
    });
  }

  it('malformed RDF answers an RDF/XML report by default, naming the code', async () => {
    const res = await fetch(app.url + '/ontology', { method: 'POST', body: RDFXML, headers: { 'Content-Type': 'application/rdf+xml' } });
    expect(res.status).to.equal(400);
    expect(res.headers.get('content-type')).to.match(/^application\/rdf\+xml/);
    const quads = await parseRdfXmlStrict(await res.text());
    expect(quads.find((q) => q.predicate.equals(OT.errorCode))?.object.value).to.equal(ERR.RDFSyntaxError.value);
    expect(quads.find((q) => q.predicate.equals(OT.message))?.object.value).to.match(/line 4, column/);
  });

  it('a report negotiates JSON-LD too', async () => {
    const res = await fetch(app.url + '/ontology/none', { headers: { Accept: 'application/ld+json' } });
    expect(res.status).to.equal(404);
    const doc = await res.json() as Record<string, unknown>;
    expect(doc['@context']).to.be.an('object');
    expect(JSON.stringify(doc)).to.contain('ot:ErrorReport');
  });

  for (const accept of ['image/png', 'application/x-unknown', 'text/turtle;q=0']) {
    it(`an unknown Accept (${accept}) gets the default RDF/XML, for data and for reports`, async () => {
      const ok = await fetch(app.url + '/ontology', { headers: { Accept: accept } });
      expect(ok.status).to.equal(200);
      expect(ok.headers.get('content-type')).to.match(/^application\/rdf\+xml/);
      const bad = await fetch(app.url + '/ontology?page=x', { headers: { Accept: accept } });
      expect(bad.status).to.equal(400);
      expect(bad.headers.get('content-type')).to.match(/^application\/rdf\+xml/);
      expect(await bad.text()).to.contain('InvalidParameter');
    });
  }

  const big = '<http://e.org/a> <http://e.org/b> "' + 'x'.repeat(10_000) + '" .\n';
  it('a body over BODY_LIMIT answers 413 (declared length)', async () => {
    const size = (await storeSize(app.deps.store));
    const res = await fetch(app.url + '/ontology', { method: 'POST', body: big, headers: { Accept: 'text/plain', 'Content-Type': 'application/n-triples' } });
    expect(res.status).to.equal(413);
    expect(await res.text()).to.match(/^413 PayloadTooLarge: request body is larger than the limit of 4096 bytes/);
    expect((await storeSize(app.deps.store))).to.equal(size);
  });

  it('a body over BODY_LIMIT answers 413 (chunked, no declared length)', async () => {
    const size = (await storeSize(app.deps.store));
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 10; i++) controller.enqueue(new TextEncoder().encode(big.slice(i * 1000, (i + 1) * 1000)));
        controller.close();
      },
    });
    const res = await fetch(app.url + '/ontology', { method: 'POST', body: stream, duplex: 'half', headers: { Accept: 'text/plain', 'Content-Type': 'application/n-triples' } } as RequestInit);
    expect(res.status).to.equal(413);
    expect((await storeSize(app.deps.store))).to.equal(size);
  });

  it('an unsupported method on /ontology answers 405 with Allow', async () => {
    const res = await fetch(app.url + '/ontology', { method: 'PATCH', headers: { Accept: 'text/plain' } });
    expect(res.status).to.equal(405);
    expect(res.headers.get('allow')).to.match(/GET/).and.to.match(/POST/);
    expect(await res.text()).to.match(/^405 MethodNotAllowed: PATCH is not allowed here/);
  });
});
