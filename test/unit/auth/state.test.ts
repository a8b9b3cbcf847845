// Token lifetimes, the login rate limit and OpenSSO answers, with fake clocks.
import { expect } from 'chai';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { TokenStore } from '../../../src/auth/tokens.ts';
import { RateLimiter } from '../../../src/auth/rateLimit.ts';
import { UserFile } from '../../../src/auth/users.ts';
import { field, uidOf } from '../../../src/auth/opensso.ts';
import { TooManyRequests } from '../../../src/errors.ts';
import { tempDir } from '../../helpers/app.ts';

describe('auth state', () => {
  let dir: string;
  beforeEach(() => { dir = tempDir(); });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('tokens expire after their lifetime and are stored only as digests', () => {
    let now = 1_000_000;
    const tokens = new TokenStore(dir, 60, () => now);
    const token = tokens.issue('alice');
    expect(tokens.userOf(token)).to.equal('alice');
    expect(readFileSync(path.join(dir, 'tokens.json'), 'utf8')).not.to.contain(token);
    now += 59_999;
    expect(new TokenStore(dir, 60, () => now).userOf(token)).to.equal('alice');
    now += 1;
    expect(tokens.userOf(token)).to.equal(undefined);
  });

  it('a revoked token is invalid after a restart', () => {
    const tokens = new TokenStore(dir, 60);
    const token = tokens.issue('bob');
    expect(tokens.revoke(token)).to.equal(true);
    expect(tokens.revoke(token)).to.equal(false);
    expect(new TokenStore(dir, 60).userOf(token)).to.equal(undefined);
  });

  it('passwords are stored as salted scrypt hashes and verified', async () => {
    const users = new UserFile(dir);
    await users.add('alice', 'correct horse');
    await users.add('bob', 'correct horse');
    const text = readFileSync(users.file, 'utf8');
    expect(text).not.to.contain('correct horse');
    const data = JSON.parse(text) as { users: Record<string, { hash: string; salt: string }> };
    expect(data.users.alice!.hash).not.to.equal(data.users.bob!.hash);
    expect(await users.verify('alice', 'correct horse')).to.equal(true);
    expect(await users.verify('alice', 'wrong horse')).to.equal(false);
    expect(await users.verify('nobody', 'correct horse')).to.equal(false);
    expect(users.list()).to.deep.equal(['alice', 'bob']);
    try {
      await users.add('bad name', 'long enough');
      expect.fail('accepted a name with a space');
    } catch (e) {
      expect((e as Error).message).to.match(/invalid user name/);
    }
  });

  it('limits attempts per address within a sliding window', () => {
    let now = 0;
    const limiter = new RateLimiter(2, 60, () => now);
    limiter.hit('a');
    now = 10_000;
    limiter.hit('a');
    limiter.hit('b');
    try {
      limiter.hit('a');
      expect.fail('third attempt allowed');
    } catch (e) {
      expect(e).to.be.instanceOf(TooManyRequests);
      expect((e as TooManyRequests).headers['Retry-After']).to.equal('50');
    }
    now = 60_001;
    limiter.hit('a');
  });

  it('reads OpenSSO answers', () => {
    expect(field('token.id=AQIC#x=\n', 'token.id')).to.equal('AQIC#x=');
    expect(field('boolean=true\r\n', 'boolean')).to.equal('true');
    expect(uidOf('userdetails.token.id=x\nuserdetails.attribute.name=uid\nuserdetails.attribute.value=alice\n')).to.equal('alice');
    expect(uidOf('userdetails.attribute.name=mail\nuserdetails.attribute.value=a@b\n')).to.equal(undefined);
  });
});
