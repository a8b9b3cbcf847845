// Request bodies in a content coding: gzip, deflate and br are decoded for every body reader
// (raw structures, forms, multipart uploads, SPARQL), the body limit counts decoded bytes
// (a compression bomb stops at 413), and a coding not decoded here answers 415 naming it.
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { expect } from 'chai';
import { startApp, type TestApp } from '../helpers/app.ts';

const LIMIT = 64 * 1024;

describe('Content-Encoding of request bodies', function () {
  this.timeout(120_000);
  let app: TestApp;
  before(async () => { app = await startApp({ bodyLimit: LIMIT }); });
  after(() => app?.close());

  const post = (path: string, type: string, body: Buffer, encoding?: string, accept = 'text/uri-list') =>
    fetch(app.url + path, { method: 'POST', headers: { 'Content-Type': type, Accept: accept, ...(encoding ? { 'Content-Encoding': encoding } : {}) }, body: new Uint8Array(body) });

  const CODINGS: Array<[string, (b: Buffer) => Buffer]> = [
    ['gzip', gzipSync], ['x-gzip', gzipSync], ['deflate', deflateSync], ['br', brotliCompressSync], ['identity', (b) => b],
    ['GZip', gzipSync], ['deflate, gzip', (b) => gzipSync(deflateSync(b))], ['identity, br', brotliCompressSync],
  ];

  it('a coded structure is decoded before it is read', async () => {
    const plain = await post('/compound', 'chemical/x-daylight-smiles', Buffer.from('c1ccccc1O'));
    const uri = (await plain.text()).trim();
    expect(plain.status).to.equal(200);
    for (const [coding, code] of CODINGS) {
      const res = await post('/compound', 'chemical/x-daylight-smiles', code(Buffer.from('c1ccccc1O')), coding);
      expect(res.status, coding).to.equal(200);
      expect((await res.text()).trim(), coding).to.equal(uri);
    }
  });

  it('a coded form, multipart upload and SPARQL query are decoded', async () => {
    const form = await post('/sparql', 'application/x-www-form-urlencoded', deflateSync(Buffer.from(`query=${encodeURIComponent('SELECT (2 AS ?two) {}')}`)), 'deflate', 'text/csv');
    expect(form.status).to.equal(200);
    expect(await form.text()).to.match(/^two\r?\n2/);
    const sparql = await post('/sparql', 'application/sparql-query', gzipSync(Buffer.from('SELECT (1 AS ?one) {}')), 'gzip', 'text/csv');
    expect(sparql.status).to.equal(200);
    expect(await sparql.text()).to.match(/^one\r?\n1/);
    const boundary = 'b0undary';
    const multipart = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.csv"\r\nContent-Type: text/csv\r\n\r\nSMILES,logS\nCCO,1\n\r\n--${boundary}--\r\n`);
    const upload = await post('/dataset', `multipart/form-data; boundary=${boundary}`, brotliCompressSync(multipart), 'br');
    const text = (await upload.text()).trim();
    expect(upload.status, text).to.be.oneOf([200, 202]);
    expect(text).to.match(/\/(dataset|task)\//);
  });

  it('a coding not decoded here is 415 naming it, before the body is read', async () => {
    for (const coding of ['compress', 'zstd', 'gzip, foo', 'aes128gcm']) {
      const res = await post('/compound', 'chemical/x-daylight-smiles', Buffer.from('c1ccccc1O'), coding, 'text/plain');
      const body = await res.text();
      expect(res.status, coding).to.equal(415);
      expect(res.headers.get('content-type')).to.match(/^text\/plain/);
      expect(body, coding).to.match(/^415 UnsupportedContentCoding: unsupported Content-Encoding "(compress|zstd|foo|aes128gcm)"/);
      expect(res.headers.get('accept-encoding')).to.equal('gzip, deflate, br');
    }
    const rdf = await post('/dataset', 'text/turtle', Buffer.from('<a> <b> <c> .'), 'zstd', 'application/rdf+xml');
    expect(rdf.status).to.equal(415);
    expect(rdf.headers.get('content-type')).to.match(/^application\/rdf\+xml/);
    expect(await rdf.text()).to.include('ErrorReport');
  });

  it('a compression bomb stops at the body limit with 413', async () => {
    for (const [coding, code] of [['gzip', gzipSync], ['br', brotliCompressSync], ['deflate, gzip', (b: Buffer) => gzipSync(deflateSync(b))]] as const) {
      const bomb = code(Buffer.alloc(16 * 1024 * 1024, 'C'));
      expect(bomb.length, coding).to.be.below(LIMIT);
      const started = Date.now();
      const res = await post('/compound', 'chemical/x-daylight-smiles', bomb, coding, 'text/plain');
      expect(res.status, coding).to.equal(413);
      expect(await res.text()).to.match(/^413 PayloadTooLarge: request body is larger than the limit of 65536 bytes/);
      expect(Date.now() - started, coding).to.be.below(5000);
    }
    // Just under the limit once decoded is read.
    const res = await post('/sparql', 'application/sparql-query', gzipSync(Buffer.from(`SELECT (1 AS ?one) {}#${'x'.repeat(LIMIT - 100)}`)), 'gzip', 'text/csv');
    expect(res.status).to.equal(200);
  });

  it('a body that is not valid in its coding is a 400 report', async () => {
    const res = await post('/compound', 'chemical/x-daylight-smiles', Buffer.from('c1ccccc1O'), 'gzip', 'text/plain');
    expect(res.status).to.equal(400);
    expect(await res.text()).to.match(/^400 BadRequest: the request body is not valid gzip: /);
    const inner = await post('/compound', 'chemical/x-daylight-smiles', gzipSync(Buffer.from('not deflate')), 'deflate, gzip', 'text/plain');
    expect(inner.status).to.equal(400);
    expect(await inner.text()).to.match(/^400 BadRequest: the request body is not valid deflate, gzip: /);
  });
});
