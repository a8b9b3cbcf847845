import { expect } from 'chai';
import { startApp, tempDir, type TestApp } from '../helpers/app.ts';
import { addUsers, form, login, PASSWORDS } from '../helpers/auth.ts';

describe('built-in authentication service (AUTH_MODE=local)', () => {
  let app: TestApp;
  before(async () => {
    const dir = tempDir();
    await addUsers(dir);
    app = await startApp({ authMode: 'local', loginRateLimit: 0 }, dir);
  });
  after(async () => { await app.close(); });

  it('authenticate answers token.id=TOKEN as text/plain', async () => {
    const res = await fetch(app.url + '/auth/authenticate', form({ username: 'alice', password: PASSWORDS.alice! }));
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^text\/plain/);
    expect(await res.text()).to.match(/^token\.id=AQIC[A-Za-z0-9_-]{43}\n$/);
  });

  it('isTokenValid answers boolean=true for a fresh token and boolean=false otherwise', async () => {
    const token = await login(app.url, 'alice');
    for (const [tokenid, answer] of [[token, 'true'], ['AQICnotatoken00000', 'false'], ['bad token', 'false']] as Array<[string, string]>) {
      const res = await fetch(app.url + '/auth/isTokenValid', form({ tokenid }));
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.match(/^text\/plain/);
      expect(await res.text()).to.equal(`boolean=${answer}\n`);
    }
  });

  it('the OpenSSO paths answer the same calls', async () => {
    const token = await login(app.url, 'bob', '/opensso/identity/authenticate');
    const valid = await fetch(app.url + '/opensso/identity/isTokenValid', form({ tokenid: token }));
    expect(await valid.text()).to.equal('boolean=true\n');
    const attrs = await fetch(app.url + '/opensso/identity/attributes', form({ subjectid: token, attributes_names: 'uid' }));
    expect(attrs.status).to.equal(200);
    expect(await attrs.text()).to.contain('userdetails.attribute.name=uid\nuserdetails.attribute.value=bob\n');
  });

  it('logout invalidates the token; a second logout answers 401', async () => {
    const token = await login(app.url, 'alice');
    const out = await fetch(app.url + '/auth/logout', form({ subjectid: token }));
    expect(out.status).to.equal(200);
    const valid = await fetch(app.url + '/auth/isTokenValid', form({ tokenid: token }));
    expect(await valid.text()).to.equal('boolean=false\n');
    const again = await fetch(app.url + '/auth/logout', { ...form({ subjectid: token }), headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'text/plain' } });
    expect(again.status).to.equal(401);
    expect(await again.text()).to.match(/^401 InvalidToken/);
    const used = await fetch(app.url + '/', { headers: { subjectid: token } });
    expect(used.status).to.equal(401);
  });

  it('missing credentials answer 400 MissingParameter naming the field', async () => {
    const res = await fetch(app.url + '/auth/authenticate', { ...form({ username: 'alice' }), headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'text/plain' } });
    expect(res.status).to.equal(400);
    expect(await res.text()).to.match(/^400 MissingParameter: missing parameter password/);
  });

  it('tokens survive a restart and users added while running can log in', async () => {
    const token = await login(app.url, 'alice');
    const dir = app.dataDir;
    await app.close({ keepData: true });
    app = await startApp({ authMode: 'local', loginRateLimit: 0 }, dir);
    const res = await fetch(app.url + '/auth/isTokenValid', form({ tokenid: token }));
    expect(await res.text()).to.equal('boolean=true\n');
    const { UserFile } = await import('../../src/auth/users.ts');
    await new UserFile(dir).add('carol', 'carol-secret-3');
    const carol = await fetch(app.url + '/auth/authenticate', form({ username: 'carol', password: 'carol-secret-3' }));
    expect(carol.status).to.equal(200);
  });

  it('a removed user loses the tokens already issued', async () => {
    const { UserFile } = await import('../../src/auth/users.ts');
    await new UserFile(app.dataDir).add('dave', 'dave-secret-4');
    const res = await fetch(app.url + '/auth/authenticate', form({ username: 'dave', password: 'dave-secret-4' }));
    const token = /token\.id=(.+)/.exec(await res.text())![1]!;
    new UserFile(app.dataDir).remove('dave');
    const valid = await fetch(app.url + '/auth/isTokenValid', form({ tokenid: token }));
    expect(await valid.text()).to.equal('boolean=false\n');
  });
});
