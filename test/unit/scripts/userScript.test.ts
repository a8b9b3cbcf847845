// `npm run user`: a data directory without a user file is said so, not listed as empty.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { tempDir } from '../../helpers/tempDirs.ts';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';

const SCRIPT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../scripts/user.ts');

const run = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', SCRIPT, ...args], { encoding: 'utf8', env: { ...process.env, DATA_DIR: '' } });

describe('npm run user', function () {
  this.timeout(30_000);
  let dir: string;
  before(() => { dir = tempDir('user-script-'); });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('list on a directory that does not exist says there is no user file and exits non-zero', () => {
    const missing = path.join(dir, 'nonexistent');
    const r = run('list', '--data-dir', missing);
    expect(r.status).to.equal(1);
    expect(r.stdout).to.equal('');
    expect(r.stderr).to.contain(`no user file at ${path.join(missing, 'users.json')}`);
  });

  it('list on a directory with users lists them', () => {
    const add = spawnSync(process.execPath, ['--import', 'tsx', SCRIPT, 'add', 'alice', '--data-dir', dir], { encoding: 'utf8', input: 'a long secret\n' });
    expect(add.status, add.stderr).to.equal(0);
    const r = run('list', '--data-dir', dir);
    expect(r.status, r.stderr).to.equal(0);
    expect(r.stdout).to.equal('alice\n');
  });

  it('add-group and remove-group put a user in a group and take it out; list shows the groups', () => {
    const added = run('add-group', 'alice', 'chem', '--data-dir', dir);
    expect(added.status, added.stderr).to.equal(0);
    expect(added.stdout).to.equal('alice is now in group chem\n');
    expect(run('list', '--data-dir', dir).stdout).to.equal('alice chem\n');
    expect(run('remove-group', 'alice', 'chem', '--data-dir', dir).status).to.equal(0);
    expect(run('list', '--data-dir', dir).stdout).to.equal('alice\n');
    const unknown = run('add-group', 'zoe', 'chem', '--data-dir', dir);
    expect(unknown.status).to.equal(1);
    expect(unknown.stderr).to.contain('no user zoe');
    const bad = run('add-group', 'alice', 'no spaces', '--data-dir', dir);
    expect(bad.status).to.equal(1);
    expect(bad.stderr).to.contain('invalid group name');
  });
});
