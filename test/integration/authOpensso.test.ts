// AUTH_MODE=opensso against a second instance of this service in local mode, acting as
// the external OpenSSO at {base}/opensso, its policy service (authorize) for AUTH_READ=owner,
// and the login rate limit.
import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startApp, tempDir, type TestApp } from '../helpers/app.ts';
import { addUsers, form, login, PASSWORDS } from '../helpers/auth.ts';

describe('AUTH_MODE=opensso against another instance', () => {
  let sso: TestApp;
  let app: TestApp;
  before(async () => {
    const dir = tempDir();
    await addUsers(dir);
    sso = await startApp({ authMode: 'local', loginRateLimit: 0 }, dir);
    app = await startApp({ authMode: 'opensso', authServiceUrl: sso.url + '/opensso', loginRateLimit: 0 });
  });
  after(async () => {
    await app.close();
    await sso.close();
  });

  it('accepts a token issued by the external service, as its user', async () => {
    const token = await login(sso.url, 'alice', '/opensso/identity/authenticate');
    const res = await fetch(app.url + '/auth/attributes', form({ subjectid: token }));
    expect(res.status).to.equal(200);
    expect(await res.text()).to.contain('userdetails.attribute.value=alice');
    const root = await fetch(app.url + '/', { headers: { subjectid: token } });
    expect(root.status).to.equal(200);
  });

  it('logs in and out through this service, forwarding to the external one', async () => {
    const token = await login(app.url, 'bob');
    expect(await (await fetch(sso.url + '/auth/isTokenValid', form({ tokenid: token }))).text()).to.equal('boolean=true\n');
    const out = await fetch(app.url + '/auth/logout', form({ subjectid: token }));
    expect(out.status).to.equal(200);
    expect(await (await fetch(sso.url + '/auth/isTokenValid', form({ tokenid: token }))).text()).to.equal('boolean=false\n');
    expect((await fetch(app.url + '/', { headers: { subjectid: token } })).status).to.equal(401);
  });

  it('answers 401 for a wrong password and for a token the external service does not know', async () => {
    const wrong = await fetch(app.url + '/auth/authenticate', form({ username: 'alice', password: 'wrong-password' }));
    expect(wrong.status).to.equal(401);
    const unknown = await fetch(app.url + '/', { headers: { subjectid: 'AQIC' + 'q'.repeat(40), Accept: 'text/plain' } });
    expect(unknown.status).to.equal(401);
    expect(await unknown.text()).to.match(/^401 InvalidToken/);
  });

  it('answers 503 when the external service cannot be reached, without echoing the token', async () => {
    const down = await startApp({ authMode: 'opensso', authServiceUrl: 'http://127.0.0.1:9/opensso' });
    try {
      const res = await fetch(down.url + '/', { headers: { subjectid: 'AQIC' + 'r'.repeat(40), Accept: 'text/plain' } });
      expect(res.status).to.equal(503);
      const text = await res.text();
      expect(text).to.match(/^503 ServiceUnavailable: the authentication service http:\/\/127\.0\.0\.1:9\/opensso cannot be reached/);
      expect(text).not.to.contain('rrrr');
    } finally {
      await down.close();
    }
  });
});

for (const mode of ['local', 'off'] as const) {
  describe(`login rate limit with AUTH_MODE=${mode}`, () => {
    let app: TestApp;
    before(async () => {
      const dir = tempDir();
      if (mode === 'local') await addUsers(dir);
      app = await startApp({ authMode: mode, loginRateLimit: 3, loginWindowSeconds: 60 }, dir);
    });
    after(async () => { await app.close(); });

    it(mode === 'local' ? 'wrong passwords answer 401, then 429 with Retry-After' : 'has no login service: 404', async () => {
      const statuses: number[] = [];
      let retry: string | null = null;
      let fields: Array<string | null> = [];
      for (let i = 0; i < 5; i++) {
        const res = await fetch(app.url + '/auth/authenticate', form({ username: 'alice', password: i === 4 ? PASSWORDS.alice! : 'wrong' }));
        statuses.push(res.status);
        if (res.status === 429) {
          retry = res.headers.get('retry-after');
          fields = [res.headers.get('ratelimit-policy'), res.headers.get('ratelimit')];
        }
      }
      if (mode === 'off') {
        expect(statuses).to.deep.equal([404, 404, 404, 404, 404]);
        return;
      }
      expect(statuses).to.deep.equal([401, 401, 401, 429, 429]);
      expect(Number(retry)).to.be.within(1, 60);
      // draft-ietf-httpapi-ratelimit-headers: 3 attempts per 60 s, none left for Retry-After seconds.
      expect(fields).to.deep.equal(['"login";q=3;w=60', `"login";r=0;t=${retry}`]);
    });
  });
}

describe('login rate limit and X-Forwarded-For', () => {
  for (const trustProxy of [false, true]) {
    it(trustProxy ? 'TRUST_PROXY=true: each forwarded address has its own limit' : 'TRUST_PROXY=false: a forged X-Forwarded-For does not dodge the limit', async () => {
      const dir = tempDir();
      await addUsers(dir);
      const app = await startApp({ authMode: 'local', loginRateLimit: 2, loginWindowSeconds: 60, trustProxy }, dir);
      try {
        const statuses: number[] = [];
        for (let i = 0; i < 4; i++) {
          const req = form({ username: 'alice', password: 'wrong' });
          req.headers = { ...(req.headers as Record<string, string>), 'X-Forwarded-For': `10.0.0.${i + 1}` };
          statuses.push((await fetch(app.url + '/auth/authenticate', req)).status);
        }
        expect(statuses).to.deep.equal(trustProxy ? [401, 401, 401, 401] : [401, 401, 429, 429]);
      } finally {
        await app.close();
      }
    });
  }
});

describe('AUTH_MODE=opensso with AUTH_READ=owner asks the policy service', () => {
  // A fake OpenSSO on loopback: identity calls go on to a local-mode instance, authorize
  // (uri, action, subjectid → boolean) answers from `allowed` and records what it was asked.
  let sso: TestApp;
  let app: TestApp;
  let policy: Server;
  const allowed = new Set<string>();
  const asked: URLSearchParams[] = [];
  let failing = false;
  before(async () => {
    const dir = tempDir();
    await addUsers(dir);
    sso = await startApp({ authMode: 'local', loginRateLimit: 0 }, dir);
    policy = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        if (req.url === '/opensso/identity/authorize') {
          const fields = new URLSearchParams(body);
          asked.push(fields);
          res.writeHead(failing ? 500 : 200, { 'Content-Type': 'text/plain' });
          res.end(failing ? 'boolean=true\n' : `boolean=${allowed.has(`${fields.get('subjectid')} ${fields.get('uri')}`)}\n`);
          return;
        }
        void fetch(sso.url + req.url, { method: req.method, headers: { 'Content-Type': req.headers['content-type'] ?? 'text/plain' }, body }).then(async (r) => {
          res.writeHead(r.status, { 'Content-Type': r.headers.get('content-type') ?? 'text/plain' });
          res.end(await r.text());
        });
      });
    });
    await new Promise<void>((r) => policy.listen(0, '127.0.0.1', r));
    const fake = `http://127.0.0.1:${(policy.address() as AddressInfo).port}/opensso`;
    app = await startApp({ authMode: 'opensso', authServiceUrl: fake, authRead: 'owner', loginRateLimit: 0 });
  });
  after(async () => {
    await app.close();
    await sso.close();
    await new Promise((r) => policy.close(r));
  });

  it('reads, lists and queries what the policy service allows, and nothing else', async () => {
    const alice = await login(app.url, 'alice');
    const bob = await login(app.url, 'bob');
    const upload = async () => {
      const res = await fetch(app.url + '/dataset', { method: 'POST', headers: { 'Content-Type': 'text/csv', Accept: 'text/uri-list', subjectid: alice }, body: 'SMILES,x\nCCO,1\nCCN,2\n' });
      expect(res.status).to.equal(200);
      return (await res.text()).trim();
    };
    const shared = await upload();
    const secret = await upload();
    allowed.add(`${bob} ${shared}`);
    const as = (token: string, url: string) => fetch(url, { headers: { subjectid: token, Accept: 'text/uri-list' } });

    expect((await as(bob, shared)).status).to.equal(200);
    expect((await as(bob, secret)).status).to.equal(403);
    expect((await as(alice, secret)).status, 'the owner is not asked about').to.equal(200);
    const listed = await (await as(bob, app.url + '/dataset')).text();
    expect(listed).to.contain(shared).and.not.contain(secret);
    const query = encodeURIComponent('SELECT DISTINCT ?g WHERE { GRAPH ?g { ?s ?p ?o } }');
    const graphs = await (await fetch(`${app.url}/sparql?query=${query}`, { headers: { subjectid: bob, Accept: 'text/csv' } })).text();
    expect(graphs).to.contain(shared).and.not.contain(secret);

    const question = asked.find((f) => f.get('uri') === shared)!;
    expect(Object.fromEntries(question)).to.deep.equal({ uri: shared, action: 'GET', subjectid: bob });
    expect(asked.some((f) => f.get('subjectid') === alice), 'Alice reads her own without asking').to.equal(false);
    expect((await fetch(app.url + '/auth/grants', { headers: { subjectid: alice } })).status, 'grants are the policy service\'s').to.equal(404);
  });

  it('a policy service that fails opens nothing', async () => {
    const alice = await login(app.url, 'alice');
    const bob = await login(app.url, 'bob');
    const res = await fetch(app.url + '/dataset', { method: 'POST', headers: { 'Content-Type': 'text/csv', Accept: 'text/uri-list', subjectid: alice }, body: 'SMILES,y\nCCO,1\n' });
    const dataset = (await res.text()).trim();
    failing = true;
    try {
      expect((await fetch(dataset, { headers: { subjectid: bob, Accept: 'text/uri-list' } })).status).to.equal(403);
    } finally {
      failing = false;
    }
  });
});
