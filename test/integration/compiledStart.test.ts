// `npm start` runs the built JavaScript with plain node (no transpiler at run time): the
// service starts from dist/ on a fresh data directory, answers, and runs a job in a worker
// thread and a substructure search in its matcher process, both loaded from dist/ too.
import { expect } from 'chai';
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { buildDist, ROOT } from '../helpers/build.ts';
import { tempDir } from '../helpers/tempDirs.ts';
import { until } from '../helpers/until.ts';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.once('error', reject);
  });
}

/** Command lines of `pid`'s child processes. */
function children(pid: number): string[] {
  try {
    return execFileSync('ps', ['-o', 'args=', '--ppid', String(pid)], { encoding: 'utf8' }).trim().split('\n').filter(Boolean);
  } catch {
    return []; // ps exits 1 when there are none
  }
}

describe('compiled start (npm start)', function () {
  this.timeout(300_000);
  let child: ChildProcess;
  let url: string;
  let stderr = '';

  before(async () => {
    await buildDist();
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    // The start script's command, as `npm start` runs it, without npm in between.
    child = spawn(process.execPath, ['dist/main.js'], {
      cwd: ROOT,
      env: { ...process.env, NODE_OPTIONS: '', MALLOC_ARENA_MAX: '2', DATA_DIR: tempDir('opentox-compiled-'), PORT: String(port), HOST: '127.0.0.1', BASE_URL: url, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    child.stderr!.on('data', (d: Buffer) => { stderr += d.toString(); });
  });

  after(async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  });

  it('is what the start and worker scripts run, with plain node', () => {
    const { scripts } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(scripts.start).to.match(/(^|\s)node dist\/main\.js$/);
    expect(scripts.worker).to.match(/(^|\s)node dist\/worker\.js$/);
    expect(scripts.prepare).to.equal('npm run build');
  });

  it('answers GET / with 200 and the list of collections', async () => {
    const res = await until('GET / to answer', async () => {
      if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}: ${stderr}`);
      return await fetch(`${url}/`, { headers: { Accept: 'text/uri-list' } });
    }, 60_000, { ignoreErrors: true, everyMs: 200 });
    expect(res.status, stderr).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^text\/uri-list/);
    expect((await res.text()).split(/\r?\n/)).to.include(`${url}/dataset`);
  });

  it('runs a job in a worker thread and a substructure search, with no transpiler', async () => {
    const csv = readFileSync(path.join(ROOT, 'examples/boiling_points.csv'));
    const posted = await fetch(`${url}/dataset`, { method: 'POST', headers: { 'Content-Type': 'text/csv', Accept: 'text/uri-list' }, body: csv });
    expect(posted.status, await posted.clone().text()).to.equal(200);
    const dataset = (await posted.text()).trim();
    const applied = await fetch(`${url}/algorithm/physchem`, { method: 'POST', headers: { Accept: 'text/uri-list' }, body: new URLSearchParams({ dataset_uri: dataset }) });
    expect(applied.status).to.be.oneOf([200, 202]);
    const task = (await applied.text()).trim();
    const result = await until('the physchem task to complete', async () => {
      const res = await fetch(task, { headers: { Accept: 'text/uri-list' } });
      if (res.status === 202) return undefined;
      expect(res.status, await res.clone().text()).to.equal(200);
      return (await res.text()).trim();
    }, 120_000, { everyMs: 250 });
    const table = await fetch(result, { headers: { Accept: 'text/csv' } });
    expect(table.status).to.equal(200);
    const header = (await table.text()).split('\n')[0]!;
    expect(header.split(',').length).to.be.greaterThan(3);

    const search = await fetch(`${url}/compound?substructure=${encodeURIComponent('c1ccccc1')}`, { headers: { Accept: 'text/uri-list' } });
    expect(search.status).to.equal(200);
    expect((await search.text()).split(/\r?\n/).filter((l) => l.startsWith(`${url}/compound/`))).to.not.be.empty;
    // tsx would run esbuild as a child process of the service.
    expect(children(child.pid!).filter((c) => /esbuild|tsx/.test(c))).to.deep.equal([]);
    expect(children(child.pid!).some((c) => c.includes('dist/chem/substructWorker.js'))).to.equal(true);
    expect(stderr).to.not.match(/ExperimentalWarning|ERR_/);
  });
});
