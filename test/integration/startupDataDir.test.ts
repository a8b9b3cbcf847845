// A DATA_DIR the service cannot use stops the start-up at once with one line saying why
// and exit code 1 (src/dataDir.ts). Under /proc, Node's recursive mkdir never returns, so
// without the check the service hung there.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { tempDir } from '../helpers/tempDirs.ts';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const MAIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../src/main.ts');

/** Starts src/main.ts on `dataDir`; resolves with its exit code and stderr, or the signal that ended it after `limitMs`. */
function start(dataDir: string, limitMs = 15_000): Promise<{ code: string; stderr: string; ms: number }> {
  const began = Date.now();
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    env: { ...process.env, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
  const timer = setTimeout(() => child.kill('SIGKILL'), limitMs);
  return new Promise((resolve) => child.once('exit', (code, signal) => {
    clearTimeout(timer);
    resolve({ code: signal ?? String(code), stderr, ms: Date.now() - began });
  }));
}

describe('start-up with a DATA_DIR that cannot hold files', function () {
  this.timeout(60_000);
  let dir: string;
  before(() => { dir = tempDir('opentox-start-'); });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses a DATA_DIR under /proc with exit code 1 and the reason, instead of hanging', async () => {
    const { code, stderr } = await start('/proc/opentox-data/store');
    expect(code, stderr).to.equal('1');
    expect(stderr.trim()).to.equal("opentox: cannot start: DATA_DIR /proc/opentox-data/store: cannot create /proc/opentox-data in /proc: ENOENT: no such file or directory, mkdir '/proc/opentox-data'");
  });

  it('refuses an existing directory of /proc that takes no files', async () => {
    const { code, stderr } = await start('/proc/self');
    expect(code, stderr).to.equal('1');
    expect(stderr).to.match(/^opentox: cannot start: DATA_DIR \/proc\/self takes no files: E[A-Z]+: /);
  });

  it('refuses a DATA_DIR below a regular file', async () => {
    const file = path.join(dir, 'plain');
    writeFileSync(file, 'not a directory');
    const { code, stderr } = await start(path.join(file, 'data'));
    expect(code, stderr).to.equal('1');
    expect(stderr).to.match(/^opentox: cannot start: DATA_DIR .*plain\/data: cannot read .*plain\/data: ENOTDIR: not a directory/);
  });
});
