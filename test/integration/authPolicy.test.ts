// Access control (SPEC §5.3) and bad input (SPEC §7): the same calls with auth on and with
// auth off.
import { expect } from 'chai';
import { tempDir } from '../helpers/app.ts';
import { addUsers, form, login } from '../helpers/auth.ts';
import { startHarness, type Harness } from '../helpers/authHarness.ts';
import { LocalIdentity } from '../../src/auth/identity.ts';

type Who = 'nobody' | 'alice' | 'bob' | 'unknown' | 'malformed' | 'expired';

interface Case {
  what: string;
  method: string;
  /** Path; {alice-dataset} and {alice-task} are resources alice created. */
  path: string;
  who: Who;
  on: number;
  off: number;
}

const CASES: Case[] = [
  { what: 'reading a collection member without a token', method: 'GET', path: '{alice-dataset}', who: 'nobody', on: 200, off: 200 },
  { what: 'creating without a token', method: 'POST', path: '/dataset', who: 'nobody', on: 401, off: 200 },
  { what: 'creating with a valid token', method: 'POST', path: '/dataset', who: 'bob', on: 200, off: 200 },
  { what: 'changing another owner\'s resource', method: 'PUT', path: '{alice-dataset}', who: 'bob', on: 403, off: 200 },
  { what: 'deleting another owner\'s resource', method: 'DELETE', path: '{alice-dataset}', who: 'bob', on: 403, off: 200 },
  { what: 'changing one\'s own resource', method: 'PUT', path: '{alice-dataset}', who: 'alice', on: 200, off: 200 },
  { what: 'changing without a token', method: 'PUT', path: '{alice-dataset}', who: 'nobody', on: 401, off: 200 },
  { what: 'an unknown token', method: 'GET', path: '{alice-dataset}', who: 'unknown', on: 401, off: 200 },
  { what: 'a malformed token', method: 'GET', path: '{alice-dataset}', who: 'malformed', on: 401, off: 200 },
  { what: 'an expired token', method: 'GET', path: '{alice-dataset}', who: 'expired', on: 401, off: 200 },
  { what: 'reading a task without a token (SPEC §4.3)', method: 'GET', path: '{alice-task}', who: 'nobody', on: 401, off: 202 },
  { what: 'reading another user\'s task', method: 'GET', path: '{alice-task}', who: 'bob', on: 403, off: 202 },
  { what: 'cancelling another user\'s task', method: 'DELETE', path: '{alice-task}', who: 'bob', on: 403, off: 200 },
  { what: 'reading one\'s own task', method: 'GET', path: '{alice-task}', who: 'alice', on: 202, off: 202 },
  { what: 'applying an algorithm without a token', method: 'POST', path: '/algorithm/x', who: 'nobody', on: 401, off: 202 },
  { what: 'applying someone else\'s model', method: 'POST', path: '/model/1', who: 'bob', on: 200, off: 200 },
];

for (const mode of ['on', 'off'] as const) {
  describe(`access policy with auth ${mode}`, () => {
    let h: Harness;
    const tokens: Record<string, string> = {};
    const made: Record<string, string> = {};
    before(async () => {
      const dir = tempDir();
      await addUsers(dir);
      // The identity's clock is set back two hours to issue a token that has expired now.
      let offset = -2 * 3600_000;
      const identity = mode === 'on' ? new LocalIdentity(dir, 3600, () => Date.now() + offset) : undefined;
      h = await startHarness({ authMode: mode === 'on' ? 'local' : 'off', loginRateLimit: 0 }, identity, dir);
      if (mode === 'on') {
        tokens.expired = await login(h.url, 'alice');
        offset = 0;
        tokens.alice = await login(h.url, 'alice');
        tokens.bob = await login(h.url, 'bob');
      } else {
        tokens.expired = tokens.alice = 'AQIC' + 'a'.repeat(43);
        tokens.bob = 'AQIC' + 'b'.repeat(43);
      }
      tokens.unknown = 'AQIC' + 'z'.repeat(43);
      tokens.malformed = 'not a token';
      const res = await fetch(h.url + '/dataset', { headers: { subjectid: tokens.alice }, method: 'POST' });
      made['alice-dataset'] = (await res.text()).trim();
      const task = await fetch(h.url + '/algorithm/x', { headers: { subjectid: tokens.alice }, method: 'POST' });
      made['alice-task'] = (await task.text()).trim();
    });
    after(async () => { await h.close(); });

    for (const c of CASES) {
      it(`${c.what}: ${c.method} answers ${c[mode]}`, async () => {
        const url = c.path.startsWith('{') ? made[c.path.slice(1, -1)]! : h.url + c.path;
        const headers: Record<string, string> = { Accept: 'text/plain' };
        if (c.who !== 'nobody') headers.subjectid = tokens[c.who]!;
        const res = await fetch(url, { method: c.method, headers });
        expect(res.status, await res.clone().text()).to.equal(c[mode]);
        if (c[mode] === 401) {
          expect(res.headers.get('www-authenticate')).to.match(/^Bearer/);
          expect(await res.text()).to.match(/^401 (InvalidToken|Unauthorized): /);
        }
        if (c[mode] === 403) expect(await res.text()).to.match(/^403 Forbidden: .* belongs to another user/);
      });
    }

    it('the URIs a POST answered (body or Location) get the caller as owner', async () => {
      const res = await fetch(h.url + '/model/1', { method: 'POST', headers: { subjectid: tokens.bob! } });
      const { ownerOf } = await import('../../src/auth/owners.ts');
      const body = (await res.text()).trim();
      expect(await ownerOf(h.deps, body)).to.equal(mode === 'on' ? 'bob' : undefined);
      expect(await ownerOf(h.deps, res.headers.get('location')!)).to.equal(mode === 'on' ? 'bob' : undefined);
    });

    it('deleting one\'s own resource forgets its owner', async () => {
      const res = await fetch(h.url + '/dataset', form({ subjectid: tokens.alice!, title: 'mine' }));
      expect(res.headers.get('x-title')).to.equal('mine');
      const uri = (await res.text()).trim();
      const { ownerOf } = await import('../../src/auth/owners.ts');
      expect(await ownerOf(h.deps, uri)).to.equal(mode === 'on' ? 'alice' : undefined);
      const del = await fetch(uri, { method: 'DELETE', headers: { subjectid: tokens.alice! } });
      expect(del.status).to.equal(200);
      expect(await ownerOf(h.deps, uri)).to.equal(undefined);
    });

    it('error reports never echo tokens or passwords', async () => {
      const secret = 'AQIC5wM2LY4Sfcz#AAJTSQACMDE=';
      const res = await fetch(`${h.url}/fail?echo=${encodeURIComponent(secret)}`, { headers: { Accept: 'text/plain' } });
      expect(res.status).to.equal(400);
      const text = await res.text();
      expect(text).to.contain('http://***@host/x?subjectid=***');
      expect(text).to.contain('Authorization: Bearer ***');
      expect(text).not.to.contain('AQIC');
      expect(text).not.to.contain(':pw@');
    });
  });
}

describe('AUTH_READ=authenticated', () => {
  let h: Harness;
  before(async () => { h = await startHarness({ authMode: 'local', authRead: 'authenticated' }); });
  after(async () => { await h.close(); });

  it('reading without a token answers 401', async () => {
    const res = await fetch(h.url + '/dataset/1');
    expect(res.status).to.equal(401);
  });
});

describe('owners kept in the resource\'s own graph', () => {
  let h: Harness;
  before(async () => {
    const dir = tempDir();
    await addUsers(dir);
    h = await startHarness({ authMode: 'local', loginRateLimit: 0 }, undefined, dir);
  });
  after(async () => { await h.close(); });

  it('are honoured like ACL entries; odd paths are no error', async () => {
    const { DataFactory } = await import('n3');
    const { OT } = await import('../../src/rdf/vocab.ts');
    const uri = h.url + '/dataset/inline';
    await h.deps.store.replaceGraph(uri, [DataFactory.quad(DataFactory.namedNode(uri), OT.owner, DataFactory.literal('alice'))]);
    const bob = await login(h.url, 'bob');
    expect((await fetch(uri, { method: 'PUT', headers: { subjectid: bob } })).status).to.equal(403);
    const alice = await login(h.url, 'alice');
    expect((await fetch(uri, { method: 'PUT', headers: { subjectid: alice } })).status).to.equal(200);
    expect((await fetch(h.url + '/dataset/a|b^c', { method: 'PUT', headers: { subjectid: alice } })).status).to.equal(200);
  });
});
