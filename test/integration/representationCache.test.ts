// Cached representations over HTTP: validators and 304 (RFC 9110 §8.8, §13), never a stale
// body after a write, and content codings (RFC 9110 §8.4) checked by decoding them with zlib.
import { request } from 'node:http';
import { gunzipSync, brotliDecompressSync } from 'node:zlib';
import { expect } from 'chai';
import { startApp, type TestApp } from '../helpers/app.ts';
import { createCompound, postStructure } from '../helpers/compounds.ts';
import { uploadDataset } from '../helpers/datasets.ts';

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** GET (or another method) over node:http: the bytes as sent, not decoded as fetch would. */
function raw(url: string, headers: Record<string, string> = {}, method = 'GET'): Promise<Raw> {
  return new Promise((resolve, reject) => {
    request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    }).on('error', reject).end();
  });
}

const vary = (r: Raw) => String(r.headers.vary ?? '').split(',').map((v) => v.trim().toLowerCase());
const MOLFILE = 'chemical/x-mdl-molfile';
const RDFXML = 'application/rdf+xml';

/** Ethanol drawn with coordinates no layout would choose (they are kept: SPEC §2.3). */
const ETHANOL_DRAWN = `ethanol
  drawn

  3  2  0  0  0  0  0  0  0  0999 V2000
    1.2345    0.0000    0.0000 C   0  0  0  0  0  0  0  0  0  0  0  0
    2.5432    0.7500    0.0000 C   0  0  0  0  0  0  0  0  0  0  0  0
    3.8765    0.0000    0.0000 O   0  0  0  0  0  0  0  0  0  0  0  0
  1  2  1  0
  2  3  1  0
M  END
`;

describe('cached representations: ETag, 304, invalidation, compression (RFC 9110)', function () {
  this.timeout(120_000);
  let app: TestApp;
  before(async () => { app = await startApp(); });
  after(async () => { await app.close(); });

  it('an algorithm carries a strong ETag per format, and If-None-Match answers 304 without a body', async () => {
    const url = `${app.url}/algorithm/knn`;
    const first = await raw(url, { Accept: RDFXML });
    expect(first.status).to.equal(200);
    expect(first.headers['content-type']).to.match(/^application\/rdf\+xml/);
    expect(first.body.toString()).to.match(/<rdf:RDF[\s\S]*ot:Algorithm|Algorithm/);
    const etag = String(first.headers.etag);
    expect(etag).to.match(/^"[^"]+"$/);
    expect(first.headers['cache-control']).to.equal('no-cache');
    expect(vary(first)).to.include('accept');

    const again = await raw(url, { Accept: RDFXML });
    expect(again.headers.etag).to.equal(etag);
    expect(again.body.equals(first.body)).to.equal(true);

    const turtle = await raw(url, { Accept: 'text/turtle' });
    expect(turtle.headers.etag).to.not.equal(etag);

    const cached = await raw(url, { Accept: RDFXML, 'If-None-Match': `"other", ${etag}` });
    expect(cached.status).to.equal(304);
    expect(cached.body.length).to.equal(0);
    expect(cached.headers.etag).to.equal(etag);
    expect(vary(cached)).to.include('accept');
    expect((await raw(url, { Accept: RDFXML, 'If-None-Match': '*' })).status).to.equal(304);
    expect((await raw(url, { Accept: RDFXML, 'If-None-Match': '"not-this-one"' })).status).to.equal(200);
    // A tag of another format of the same resource is another representation.
    expect((await raw(url, { Accept: RDFXML, 'If-None-Match': String(turtle.headers.etag) })).status).to.equal(200);
    // Held bodies do not stand in for the page a browser asks for, nor for a HEAD's headers.
    const page = await raw(url, { Accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8' });
    expect(page.headers['content-type']).to.match(/^text\/html/);
    const head = await raw(url, { Accept: RDFXML }, 'HEAD');
    expect(head.status).to.equal(200);
    expect(head.headers.etag).to.equal(etag);
    expect(head.body.length).to.equal(0);
  });

  it('Last-Modified and If-Modified-Since: 304 when not modified since, and If-None-Match decides when both are sent', async () => {
    // Last-Modified is sent from the second after the change on (RFC 9110 §8.8.2.2).
    await new Promise((r) => setTimeout(r, 1100));
    const url = `${app.url}/algorithm/knn`;
    const res = await raw(url, { Accept: RDFXML });
    const lastModified = String(res.headers['last-modified']);
    expect(Date.parse(lastModified)).to.be.within(Date.now() - 600_000, Date.now());
    expect((await raw(url, { Accept: RDFXML, 'If-Modified-Since': lastModified })).status).to.equal(304);
    expect((await raw(url, { Accept: RDFXML, 'If-Modified-Since': new Date(Date.parse(lastModified) - 3_600_000).toUTCString() })).status).to.equal(200);
    expect((await raw(url, { Accept: RDFXML, 'If-Modified-Since': 'not a date' })).status).to.equal(200);
    expect((await raw(url, { Accept: RDFXML, 'If-Modified-Since': lastModified, 'If-None-Match': '"stale"' })).status).to.equal(200);
  });

  it('PUT, POST and DELETE of a compound are seen by the next GET, never a cached body', async () => {
    const ethanol = await createCompound(app.url, 'CCO');
    const before = await raw(ethanol, { Accept: MOLFILE });
    expect(before.status).to.equal(200);
    expect(before.body.toString()).to.not.contain('1.2345');
    const tag = String(before.headers.etag);
    expect((await raw(ethanol, { Accept: MOLFILE, 'If-None-Match': tag })).status).to.equal(304);

    // PUT of the same molecule, drawn: the drawing is now the representation.
    const put = await fetch(ethanol, { method: 'PUT', headers: { 'Content-Type': MOLFILE, Accept: 'text/uri-list' }, body: ETHANOL_DRAWN });
    expect(put.status).to.equal(200);
    const afterPut = await raw(ethanol, { Accept: MOLFILE, 'If-None-Match': tag });
    expect(afterPut.status).to.equal(200);
    expect(afterPut.body.toString()).to.contain('1.2345');
    expect(afterPut.headers.etag).to.not.equal(tag);

    // POST of a conformer: the default structure is the first conformer (SPEC §2.3).
    const conformer = await postStructure(app.url, ETHANOL_DRAWN.replace('1.2345', '9.8765'), MOLFILE, new URL(ethanol).pathname + '/conformer');
    expect(conformer.status).to.equal(200);
    const afterPost = await raw(ethanol, { Accept: MOLFILE, 'If-None-Match': String(afterPut.headers.etag) });
    expect(afterPost.status).to.equal(200);
    expect(afterPost.body.toString()).to.contain('9.8765');

    const deleted = await fetch(ethanol, { method: 'DELETE' });
    expect(deleted.status).to.equal(200);
    const gone = await raw(ethanol, { Accept: MOLFILE, 'If-None-Match': String(afterPost.headers.etag) });
    expect(gone.status).to.equal(404);
  });

  it('PUT and DELETE of an ontology are seen by the next GET', async () => {
    const uri = `${app.url}/ontology/cachetest`;
    const nt = (o: string) => `<http://example.org/a> <http://www.w3.org/2000/01/rdf-schema#subClassOf> <http://example.org/${o}> .\n`;
    expect((await fetch(uri, { method: 'PUT', body: nt('first'), headers: { 'Content-Type': 'application/n-triples' } })).status).to.equal(201);
    const first = await raw(uri, { Accept: 'application/n-triples' });
    expect(first.body.toString()).to.contain('http://example.org/first');
    expect((await raw(uri, { Accept: 'application/n-triples', 'If-None-Match': String(first.headers.etag) })).status).to.equal(304);
    expect((await fetch(uri, { method: 'PUT', body: nt('second'), headers: { 'Content-Type': 'application/n-triples' } })).status).to.equal(200);
    const second = await raw(uri, { Accept: 'application/n-triples', 'If-None-Match': String(first.headers.etag) });
    expect(second.status).to.equal(200);
    expect(second.body.toString()).to.contain('http://example.org/second').and.not.contain('http://example.org/first');
    expect((await fetch(uri, { method: 'DELETE' })).status).to.equal(200);
    expect((await raw(uri, { Accept: 'application/n-triples', 'If-None-Match': String(second.headers.etag) })).status).to.equal(404);
  });

  it('a finished task is served with a validator; a task still running is not', async () => {
    const rows = 'SMILES,x\nCCO,1\nCCCO,2\n';
    // Asked for RDF, a job done within the request is recorded as a Completed task too (SPEC §4.3).
    const res = await fetch(`${app.url}/dataset`, { method: 'POST', headers: { 'Content-Type': 'text/csv', Accept: 'text/uri-list;q=0.5, application/rdf+xml' }, body: rows });
    await res.text();
    expect(res.status).to.be.oneOf([200, 202]);
    const text = res.headers.get('location') ?? '';
    if (res.status === 202) {
      const running = await raw(text, { Accept: RDFXML });
      if (running.status === 202) expect(running.headers.etag).to.equal(undefined);
      for (let i = 0; i < 600 && (await raw(text, { Accept: 'text/uri-list' })).status === 202; i++) await new Promise((r) => setTimeout(r, 100));
    }
    // The dataset POST answers the task when it ran past the synchronous window; list one otherwise.
    const task = res.status === 202 ? text : (await (await fetch(`${app.url}/task`, { headers: { Accept: 'text/uri-list' } })).text()).trim().split(/\r?\n/)[0];
    const done = await raw(task!, { Accept: RDFXML });
    expect(done.status).to.equal(200);
    expect(done.body.toString()).to.contain('Completed');
    expect((await raw(task!, { Accept: RDFXML, 'If-None-Match': String(done.headers.etag) })).status).to.equal(304);
  });

  it('gzip and br round trip for a body over 1 KB, with their own ETags and Vary: Accept-Encoding', async () => {
    const url = `${app.url}/algorithm/knn`;
    const plain = await raw(url, { Accept: RDFXML });
    expect(plain.body.length).to.be.greaterThan(1024);
    expect(plain.headers['content-encoding']).to.equal(undefined);
    expect(vary(plain)).to.include.members(['accept', 'accept-encoding']);

    const gz = await raw(url, { Accept: RDFXML, 'Accept-Encoding': 'gzip, deflate' });
    expect(gz.headers['content-encoding']).to.equal('gzip');
    expect(gz.headers['content-type']).to.match(/^application\/rdf\+xml/);
    expect(vary(gz)).to.include.members(['accept', 'accept-encoding']);
    expect(gz.body.length).to.be.lessThan(plain.body.length);
    expect(gunzipSync(gz.body).equals(plain.body)).to.equal(true);
    expect(gz.headers.etag).to.not.equal(plain.headers.etag);
    expect((await raw(url, { Accept: RDFXML, 'Accept-Encoding': 'gzip', 'If-None-Match': String(gz.headers.etag) })).status).to.equal(304);

    const br = await raw(url, { Accept: RDFXML, 'Accept-Encoding': 'gzip;q=0.5, br' });
    expect(br.headers['content-encoding']).to.equal('br');
    expect(brotliDecompressSync(br.body).equals(plain.body)).to.equal(true);

    const refused = await raw(url, { Accept: RDFXML, 'Accept-Encoding': 'gzip;q=0, br;q=0' });
    expect(refused.headers['content-encoding']).to.equal(undefined);
    expect(refused.body.equals(plain.body)).to.equal(true);
  });

  it('a repeated request is answered with the same header fields and bytes as the first, HEAD too, each Accept and coding its own, until a write', async () => {
    const compound = await createCompound(app.url, 'OCC');
    // Last-Modified is sent from the second after the change on: from then on every repeated
    // request gets the same header fields and bytes as the first.
    await new Promise((r) => setTimeout(r, 1100));
    const fields = (r: Raw) => Object.entries(r.headers).filter(([k]) => k !== 'date').sort(([a], [b]) => a.localeCompare(b));
    const asked: Array<Record<string, string>> = [{ Accept: MOLFILE }, { Accept: RDFXML }, { Accept: RDFXML, 'Accept-Encoding': 'gzip' }, { Accept: 'chemical/x-daylight-smiles' }];
    const firsts: Raw[] = [];
    for (const headers of asked) {
      const first = await raw(compound, headers);
      expect(first.status).to.equal(200);
      expect(first.headers['last-modified']).to.be.a('string');
      firsts.push(first);
      for (let i = 0; i < 3; i++) {
        const again = await raw(compound, headers);
        expect(again.status).to.equal(200);
        expect(again.body.equals(first.body)).to.equal(true);
        expect(fields(again)).to.deep.equal(fields(first));
      }
      const head = await raw(compound, headers, 'HEAD');
      expect(head.status).to.equal(200);
      expect(head.body.length).to.equal(0);
      expect(fields(head)).to.deep.equal(fields(first));
      expect((await raw(compound, { ...headers, 'If-None-Match': String(first.headers.etag) })).status).to.equal(304);
    }
    expect(firsts[2]!.headers['content-encoding']).to.equal('gzip');
    expect(gunzipSync(firsts[2]!.body).equals(firsts[1]!.body)).to.equal(true);
    // Asked in turns, each answer is still its own.
    for (let round = 0; round < 2; round++) {
      for (const [i, headers] of asked.entries()) expect((await raw(compound, headers)).body.equals(firsts[i]!.body)).to.equal(true);
    }
    // A write: the next request, the same as the last one, gets the new structure.
    await raw(compound, { Accept: MOLFILE });
    const put = await fetch(compound, { method: 'PUT', headers: { 'Content-Type': MOLFILE, Accept: 'text/uri-list' }, body: ETHANOL_DRAWN });
    expect(put.status).to.equal(200);
    const after = await raw(compound, { Accept: MOLFILE });
    expect(after.status).to.equal(200);
    expect(after.body.toString()).to.contain('1.2345');
    expect(after.headers.etag).to.not.equal(firsts[0]!.headers.etag);
  });

  it('a repeated request keeps the header fields a layer before the cache sets (CORS)', async () => {
    const cors = await startApp({ corsOrigins: ['https://app.example.org'] });
    try {
      await new Promise((r) => setTimeout(r, 1100));
      const url = `${cors.url}/algorithm/knn`;
      for (let i = 0; i < 4; i++) {
        const res = await raw(url, { Accept: RDFXML, Origin: 'https://app.example.org' });
        expect(res.status).to.equal(200);
        expect(res.headers['access-control-allow-origin']).to.equal('https://app.example.org');
        expect(vary(res)).to.include.members(['origin', 'accept', 'accept-encoding']);
      }
      const other = await raw(url, { Accept: RDFXML, Origin: 'https://elsewhere.example.org' });
      expect(other.status).to.equal(200);
      expect(other.headers['access-control-allow-origin']).to.equal(undefined);
    } finally {
      await cors.close();
    }
  });

  it('a body under 1 KB is sent as it is', async () => {
    const ethanol = await createCompound(app.url, 'CCCO');
    const res = await raw(ethanol, { Accept: 'chemical/x-daylight-smiles', 'Accept-Encoding': 'gzip, br' });
    expect(res.status).to.equal(200);
    expect(res.body.toString()).to.equal('CCCO\n');
    expect(res.headers['content-encoding']).to.equal(undefined);
    expect(vary(res)).to.not.include('accept-encoding');
  });

  it('a streamed dataset is gzip-coded as it streams, and decodes to the plain stream', async () => {
    const rows = ['SMILES,x', ...Array.from({ length: 40 }, (_, i) => `${'C'.repeat(i + 1)}O,${i}`)].join('\n') + '\n';
    const upload = await uploadDataset(app, rows, 'text/csv');
    expect(upload.status).to.equal(200);
    const plain = await raw(upload.body, { Accept: RDFXML });
    expect(plain.status).to.equal(200);
    expect(plain.body.toString()).to.match(/DataEntry[\s\S]*DataEntry/);
    const gz = await raw(upload.body, { Accept: RDFXML, 'Accept-Encoding': 'gzip' });
    expect(gz.status).to.equal(200);
    expect(gz.headers['content-encoding']).to.equal('gzip');
    expect(gz.headers['content-length']).to.equal(undefined);
    expect(vary(gz)).to.include('accept-encoding');
    expect(gunzipSync(gz.body).toString()).to.equal(plain.body.toString());
  });
});
