// AUTH_MODE=opensso against a second instance of this service in local mode, acting as
// the external OpenSSO at {base}/opensso, and the login rate limit.
import { expect } from 'chai';
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
      for (let i = 0; i < 5; i++) {
        const res = await fetch(app.url + '/auth/authenticate', form({ username: 'alice', password: i === 4 ? PASSWORDS.alice! : 'wrong' }));
        statuses.push(res.status);
        if (res.status === 429) retry = res.headers.get('retry-after');
      }
      if (mode === 'off') {
        expect(statuses).to.deep.equal([404, 404, 404, 404, 404]);
        return;
      }
      expect(statuses).to.deep.equal([401, 401, 401, 429, 429]);
      expect(Number(retry)).to.be.within(1, 60);
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
