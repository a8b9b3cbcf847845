// SPEC §5.1: every place a token can travel, URL-decoded; with auth off it is kept too
// (to be passed on to remote services) but never checked.
import { expect } from 'chai';
import type { IdentityService } from '../../src/auth/identity.ts';
import { startHarness, type Harness } from '../helpers/authHarness.ts';

/** An OpenSSO-shaped token, with the # and = that real ones contain. */
const TOKEN = 'AQIC5wM2LY4SfczJ+x/1#AAJTSQACMDE=';
const ENC = encodeURIComponent(TOKEN);

/** Knows only TOKEN, as alice: stands in for an external OpenSSO. */
const fakeIdentity: IdentityService = {
  authenticate: async () => undefined,
  validate: async (token) => (token === TOKEN ? 'alice' : undefined),
  logout: async () => false,
};

function multipart(): RequestInit {
  const body = new FormData();
  body.set('subjectid', TOKEN);
  body.set('file', new Blob(['x'], { type: 'text/plain' }), 'x.txt');
  return { method: 'POST', body };
}

const SOURCES: Array<[string, () => [string, RequestInit]]> = [
  ['the subjectid query parameter (%23 for #)', () => [`/whoami?subjectid=${ENC}`, {}]],
  ['the subjectid header', () => ['/whoami', { headers: { subjectid: TOKEN } }]],
  ['the subjectid header, URL-encoded', () => ['/whoami', { headers: { subjectid: ENC } }]],
  ['Authorization: Bearer', () => ['/whoami', { headers: { Authorization: `Bearer ${TOKEN}` } }]],
  ['the subjectid cookie', () => ['/whoami', { headers: { Cookie: `subjectid=${ENC}` } }]],
  ['the subjectid form field', () => ['/whoami', { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: `subjectid=${ENC}` }]],
  ['a multipart subjectid field', () => ['/whoami', multipart()]],
];

for (const mode of ['on', 'off'] as const) {
  describe(`token sources with auth ${mode}`, () => {
    let h: Harness;
    before(async () => {
      h = await startHarness({ authMode: mode === 'on' ? 'opensso' : 'off', authServiceUrl: 'http://127.0.0.1:9/unused' }, mode === 'on' ? fakeIdentity : undefined);
    });
    after(async () => { await h.close(); });

    for (const [name, request] of SOURCES) {
      it(`reads ${name}`, async () => {
        const [path, init] = request();
        const res = await fetch(h.url + path, init);
        const isPost = init.method === 'POST';
        if (mode === 'off' && isPost && !(init.headers as Record<string, string> | undefined)?.['Content-Type']) {
          // Multipart bodies are not read with auth off: uploads can be large.
          expect(res.status).to.equal(200);
          expect(await res.json()).to.deep.equal({ client: 'address 127.0.0.1' });
          return;
        }
        expect(res.status).to.equal(200);
        expect(res.headers.get('content-type')).to.match(/^application\/json/);
        // The job quota's client is the user when there is one, else the address.
        expect(await res.json()).to.deep.equal(mode === 'on' ? { owner: 'alice', subjectid: TOKEN, client: 'alice' } : { subjectid: TOKEN, client: 'address 127.0.0.1' });
      });
    }
  });
}
