// CORS (Fetch standard): off by default; with CORS_ORIGINS a browser script on a listed
// origin may call the service, preflights are answered (before authentication), and the
// headers clients read (Location, Link, X-Total-Count...) are exposed.
import { expect } from 'chai';
import { startApp, type TestApp } from '../helpers/app.ts';
import { loadConfig } from '../../src/config.ts';

const APP = 'https://app.example.org';
const OTHER = 'https://evil.example.net';

const preflight = (url: string, origin: string) => fetch(url, {
  method: 'OPTIONS',
  headers: { Origin: origin, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type, subjectid' },
});

describe('CORS', function () {
  this.timeout(60_000);

  describe('off by default', () => {
    let app: TestApp;
    before(async () => { app = await startApp(); });
    after(async () => { await app.close(); });

    it('answers without CORS headers', async () => {
      const res = await fetch(app.url + '/dataset', { headers: { Origin: APP, Accept: 'text/uri-list' } });
      expect(res.status).to.equal(200);
      expect(res.headers.get('access-control-allow-origin')).to.equal(null);
      const pre = await preflight(app.url + '/dataset', APP);
      expect(pre.headers.get('access-control-allow-origin')).to.equal(null);
      expect(pre.headers.get('access-control-allow-methods')).to.equal(null);
    });
  });

  describe('with CORS_ORIGINS listing one origin, auth on', () => {
    let app: TestApp;
    before(async () => { app = await startApp({ corsOrigins: [APP], authMode: 'local', authRead: 'public' }); });
    after(async () => { await app.close(); });

    it('a listed origin may read, and sees the paging and Location headers', async () => {
      const res = await fetch(app.url + '/dataset', { headers: { Origin: APP, Accept: 'text/uri-list' } });
      expect(res.status).to.equal(200);
      expect(res.headers.get('access-control-allow-origin')).to.equal(APP);
      expect(res.headers.get('vary')).to.match(/\bOrigin\b/i);
      const exposed = (res.headers.get('access-control-expose-headers') ?? '').split(/,\s*/).map((h) => h.toLowerCase());
      for (const h of ['location', 'link', 'x-total-count', 'retry-after', 'www-authenticate']) expect(exposed, h).to.include(h);
      expect(res.headers.get('link')).to.match(/rel="first"/);
    });

    it('a representation served from the cache varies on Origin as well as Accept and Accept-Encoding', async () => {
      for (let i = 0; i < 2; i++) {
        const res = await fetch(app.url + '/algorithm/knn', { headers: { Origin: APP, Accept: 'application/rdf+xml' } });
        expect(res.status).to.equal(200);
        await res.text();
        const vary = (res.headers.get('vary') ?? '').split(/,\s*/).map((h) => h.toLowerCase());
        expect(vary, `request ${i + 1}`).to.include.members(['origin', 'accept', 'accept-encoding']);
      }
    });

    it('an origin not listed gets no CORS headers', async () => {
      const res = await fetch(app.url + '/dataset', { headers: { Origin: OTHER, Accept: 'text/uri-list' } });
      expect(res.headers.get('access-control-allow-origin')).to.equal(null);
      const pre = await preflight(app.url + '/dataset', OTHER);
      expect(pre.headers.get('access-control-allow-origin')).to.equal(null);
    });

    it('a preflight is answered 204 without a token, allowing the method and the token header', async () => {
      const res = await preflight(app.url + '/dataset', APP);
      expect(res.status).to.equal(204);
      expect(res.headers.get('access-control-allow-origin')).to.equal(APP);
      expect(res.headers.get('access-control-allow-methods')).to.match(/\bPOST\b/);
      expect(res.headers.get('access-control-allow-headers')?.toLowerCase()).to.include('subjectid');
      expect(res.headers.get('access-control-max-age')).to.equal('600');
    });

    it('error answers carry the CORS headers too, so the script can read the report', async () => {
      const res = await fetch(app.url + '/dataset', { method: 'POST', headers: { Origin: APP, 'Content-Type': 'text/csv', Accept: 'text/plain' }, body: 'SMILES\nCCO\n' });
      expect(res.status).to.equal(401);
      expect(res.headers.get('access-control-allow-origin')).to.equal(APP);
      expect(await res.text()).to.match(/^401 /);
    });
  });

  describe('with CORS_ORIGINS=*', () => {
    let app: TestApp;
    before(async () => { app = await startApp({ corsOrigins: ['*'] }); });
    after(async () => { await app.close(); });

    it('any origin may read; a created resource\'s Location is exposed', async () => {
      const res = await fetch(app.url + '/dataset', { method: 'POST', headers: { Origin: OTHER, 'Content-Type': 'text/csv', Accept: 'text/uri-list' }, body: 'SMILES,LC50\nCCO,1\n' });
      expect(res.status, await res.clone().text()).to.equal(200);
      expect(res.headers.get('access-control-allow-origin')).to.equal('*');
      expect(res.headers.get('access-control-expose-headers')).to.include('Location');
    });
  });

  describe('CORS_ORIGINS parsing', () => {
    it('reads a comma list of origins or *', () => {
      expect(loadConfig([], { CORS_ORIGINS: 'https://a.org, http://b.org:8080/' }).corsOrigins).to.deep.equal(['https://a.org', 'http://b.org:8080']);
      expect(loadConfig([], { CORS_ORIGINS: '*' }).corsOrigins).to.deep.equal(['*']);
      expect(loadConfig([], {}).corsOrigins).to.deep.equal([]);
    });

    it('refuses what is not an origin', () => {
      expect(() => loadConfig([], { CORS_ORIGINS: 'app.example.org' })).to.throw(/CORS_ORIGINS: expected origins/);
      expect(() => loadConfig([], { CORS_ORIGINS: 'https://a.org/path' })).to.throw(/CORS_ORIGINS: expected an origin/);
    });
  });
});
