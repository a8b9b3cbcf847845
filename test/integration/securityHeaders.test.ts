// Header fields of every answer: nosniff on all of them (errors, 304s, replies the
// representation cache writes whole), and on pages a Content-Security-Policy that allows
// exactly the inline script and stylesheet the pages carry, by hash.
import { createHash } from 'node:crypto';
import { expect } from 'chai';
import { startApp, type TestApp } from '../helpers/app.ts';
import { uploadDataset } from '../helpers/datasets.ts';

const sha256 = (text: string) => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

describe('security header fields', function () {
  this.timeout(120_000);
  let app: TestApp;
  let dataset: string;

  before(async () => {
    app = await startApp({ corsOrigins: ['http://app.example'] });
    dataset = (await uploadDataset(app, 'SMILES,logS\nCCO,1\nc1ccccc1O,2\n', 'text/csv')).body;
  });
  after(() => app?.close());

  it('nosniff on every kind of answer', async () => {
    const algorithm = `${app.url}/algorithm/physchem`;
    const first = await fetch(algorithm, { headers: { Accept: 'text/turtle' } });
    await first.arrayBuffer();
    const etag = first.headers.get('etag')!;
    // Asked again the same way: the representation cache answers in one write.
    await new Promise((r) => setTimeout(r, 1100));
    await (await fetch(algorithm, { headers: { Accept: 'text/turtle' } })).arrayBuffer();
    const cases: Array<[string, string, RequestInit, number]> = [
      ['a list', '/compound', { headers: { Accept: 'text/uri-list' } }, 200],
      ['RDF', '/algorithm/physchem', { headers: { Accept: 'text/turtle' } }, 200],
      ['a reply the cache writes whole', '/algorithm/physchem', { headers: { Accept: 'text/turtle' } }, 200],
      ['a 304', '/algorithm/physchem', { headers: { Accept: 'text/turtle', 'If-None-Match': etag } }, 304],
      ['a 404 report', '/nothing/here', { headers: { Accept: 'text/plain' } }, 404],
      ['a 405 report', '/algorithm', { method: 'DELETE' }, 405],
      ['a 400 report', '/compound?page=x', {}, 400],
      ['a CORS preflight', '/dataset', { method: 'OPTIONS', headers: { Origin: 'http://app.example', 'Access-Control-Request-Method': 'POST' } }, 204],
      ['a page', '/dataset', { headers: { Accept: 'text/html' } }, 200],
      ['an error page', '/dataset/999999', { headers: { Accept: 'text/html' } }, 404],
      ['a gzip-coded answer', '/compound', { headers: { Accept: 'text/uri-list', 'Accept-Encoding': 'gzip' } }, 200],
    ];
    for (const [what, path, init, status] of cases) {
      const res = await fetch(app.url + path, init);
      await res.arrayBuffer();
      expect(res.status, what).to.equal(status);
      expect(res.headers.get('x-content-type-options'), what).to.equal('nosniff');
    }
  });

  it('pages carry a policy that allows their own inline script and stylesheet by hash and nothing else', async () => {
    for (const path of ['/', '/dataset', new URL(dataset).pathname, '/compound/1', '/algorithm/physchem', '/dataset/999999']) {
      const res = await fetch(app.url + path, { headers: { Accept: 'text/html' } });
      const page = await res.text();
      expect(res.headers.get('content-type'), path).to.match(/^text\/html/);
      const policy = res.headers.get('content-security-policy') ?? '';
      const directives = new Map(policy.split(/;\s*/).map((d) => [d.split(' ')[0]!, d.split(' ').slice(1)]));
      expect(directives.get('default-src'), path).to.deep.equal(["'none'"]);
      expect(directives.get('frame-ancestors'), path).to.deep.equal(["'none'"]);
      expect(directives.get('base-uri'), path).to.deep.equal(["'none'"]);
      expect(res.headers.get('x-frame-options'), path).to.equal('DENY');
      expect(res.headers.get('referrer-policy'), path).to.equal('no-referrer');
      // Every inline block is allowed by its hash; nothing is allowed wholesale.
      expect(policy, path).to.not.match(/unsafe-inline|unsafe-eval|\*/);
      const scripts = [...page.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => sha256(m[1]!));
      const styles = [...page.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => sha256(m[1]!));
      expect(styles, path).to.have.length(1);
      for (const h of scripts) expect(directives.get('script-src'), path).to.include(h);
      for (const h of styles) expect(directives.get('style-src'), path).to.include(h);
      // A strict style-src refuses style attributes (depictions carry presentation attributes instead), and handlers.
      expect(page, path).to.not.match(/<script[^>]*\ssrc=|\sstyle=|\son[a-z]+=/i);
    }
    const withScript = await (await fetch(`${app.url}/algorithm/physchem`, { headers: { Accept: 'text/html' } })).text();
    expect(withScript).to.match(/<script>/);
    const depicted = await (await fetch(dataset, { headers: { Accept: 'text/html' } })).text();
    expect(depicted).to.match(/<path [^>]*stroke="#000000"/);
  });

  it('RDF and lists carry no page policy', async () => {
    const res = await fetch(`${app.url}/dataset`, { headers: { Accept: 'text/uri-list' } });
    await res.arrayBuffer();
    expect(res.headers.get('content-security-policy')).to.equal(null);
  });
});
