// The distributed mode end to end (docs/engines.md, "Jobs"): Virtuoso and Redis, two API
// processes started with WORKERS=0 behind one BASE_URL (a round-robin proxy here), and two
// worker processes (`npm run worker`, i.e. `node dist/worker.js`, the build; the API processes
// run the sources under tsx), each process with a DATA_DIR of its own. Every request goes through the proxy, so consecutive requests
// reach different API processes, and every job runs in a worker.
import { expect } from 'chai';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startRedis, type Redis } from '../../scripts/engines/redis.ts';
import { freePort } from '../../scripts/engines/ports.ts';
import { releaseVirtuoso, remoteStore, stopVirtuosos, virtuosoFor, virtuosoState } from '../helpers/engines.ts';
import { tempDir } from '../helpers/app.ts';
import { sharedData } from '../helpers/data.ts';
import { buildDist } from '../helpers/build.ts';
import { until as waitUntil } from '../helpers/until.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

interface Proc {
  child: ChildProcess;
  /** Lines of its JSON log so far. */
  log: string[];
  exited: Promise<void>;
}

function launch(args: string[], env: Record<string, string>): Proc {
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const log: string[] = [];
  const keep = (d: Buffer) => log.push(...d.toString().split('\n').filter(Boolean));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  return { child, log, exited };
}

/** Processes start and end at their own pace: asked every 200 ms for up to a minute, a probe that throws means "not yet". */
const until = <T>(what: string, probe: () => Promise<T | undefined>, ms = 60_000): Promise<T> => waitUntil(what, probe, ms, { everyMs: 200, ignoreErrors: true });

/** A load balancer in one function: each request goes to the next process in turn. */
function roundRobin(ports: () => number[]): http.Server {
  let next = 0;
  return http.createServer((req, res) => {
    const targets = ports();
    const port = targets[next++ % targets.length];
    const up = http.request({ host: '127.0.0.1', port, path: req.url, method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    up.on('error', () => {
      res.writeHead(502).end();
    });
    req.pipe(up);
  });
}

// 2-Acetylaminofluorene, a row of the hamster CSV that no other test makes.
const HAMSTER_SMILES = 'C12C3=C(C=CC=C3)CC1=CC(=CC=2)NC(C)=O';

// Butan-1-ol with coordinates drawn by hand (a zig-zag chain): a PUT keeps them as given.
const BUTANOL = `butan-1-ol
  hand-made

  5  4  0  0  0  0  0  0  0  0999 V2000
    0.0000    0.0000    0.0000 C   0  0  0  0  0  0  0  0  0  0  0  0
    1.2990    0.7500    0.0000 C   0  0  0  0  0  0  0  0  0  0  0  0
    2.5981    0.0000    0.0000 C   0  0  0  0  0  0  0  0  0  0  0  0
    3.8971    0.7500    0.0000 C   0  0  0  0  0  0  0  0  0  0  0  0
    5.1962    0.0000    0.0000 O   0  0  0  0  0  0  0  0  0  0  0  0
  1  2  1  0
  2  3  1  0
  3  4  1  0
  4  5  1  0
M  END
`;

describe('distributed: two API processes (WORKERS=0) and two workers on Virtuoso and Redis', function () {
  this.timeout(180_000);
  const dirs: string[] = [];
  let redis: Redis;
  let proxy: http.Server;
  let base: string;
  let env: Record<string, string>;
  const apiPorts: number[] = [];
  const apis: Proc[] = [];
  const workers: Proc[] = [];

  const dir = (name: string) => {
    const d = tempDir(`opentox-dist-${name}-`);
    dirs.push(d);
    return d;
  };
  const startApi = async (i: number, dataDir = dir(`api${i}`)) => {
    apis[i] = launch(['--import', 'tsx', 'src/main.ts'], { ...env, WORKERS: '0', PORT: String(apiPorts[i]), DATA_DIR: dataDir, LOG_LEVEL: 'warn' });
    await until(`API process ${i}`, async () => ((await fetch(`http://127.0.0.1:${apiPorts[i]}/algorithm`, { headers: { Accept: 'text/uri-list' } })).ok ? true : undefined));
    return dataDir;
  };
  const startWorker = (i: number) => {
    workers[i] = launch(['dist/worker.js'], { ...env, WORKERS: '1', DATA_DIR: dir(`worker${i}`), LOG_LEVEL: 'info' });
  };
  /** The status of a task as the next API process sees it. */
  const status = async (task: string) => {
    const res = await fetch(task, { headers: { Accept: 'text/uri-list' } });
    return { status: res.status, body: (await res.text()).trim() };
  };
  /** The task once final, with its report when it failed (the message of a failed assertion). */
  const finalState = (task: string) => until(`task ${task} to end`, async () => {
    const r = await status(task);
    if (r.status === 202) return undefined;
    if (r.status >= 400) r.body = await (await fetch(task, { headers: { Accept: 'text/turtle' } })).text();
    return r;
  }, 120_000);

  before(async () => {
    await buildDist();
    redis = await startRedis(dir('redis'));
    const virtuoso = await virtuosoFor('distributed');
    apiPorts.push(await freePort(), await freePort());
    proxy = roundRobin(() => apiPorts);
    await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', () => r()));
    base = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`;
    env = { SPARQL_ENDPOINT: virtuoso.endpoint, SPARQL_GRAPH_STORE: virtuoso.graphStore, REDIS_URL: redis.url, BASE_URL: base, HOST: '127.0.0.1', JOB_LOCK_MS: '8000' };
    startWorker(0);
    startWorker(1);
    await Promise.all([startApi(0), startApi(1)]);
  });

  after(async () => {
    for (const p of [...apis, ...workers]) {
      if (p && p.child.exitCode === null) p.child.kill('SIGKILL');
      await p?.exited;
    }
    await new Promise((r) => proxy?.close(r));
    await redis?.stop();
    await releaseVirtuoso('distributed');
    // The remote run shares its Virtuosos between files and stops them at its end (remoteHooks.ts).
    if (!remoteStore) await stopVirtuosos();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  let compound: string;
  let dataset: string;
  let model: string;

  it('a compound created through one API process is read in every format through the other', async () => {
    const made = await fetch(base + '/compound', { method: 'POST', headers: { 'Content-Type': 'chemical/x-daylight-smiles', Accept: 'text/uri-list' }, body: 'CCO' });
    expect(made.status).to.equal(200);
    compound = (await made.text()).trim();
    expect(compound.startsWith(base + '/compound/')).to.equal(true);
    // Independent values: InChI and InChIKey of ethanol as published (PubChem CID 702).
    const expected: Array<[string, (body: string) => void]> = [
      ['chemical/x-daylight-smiles', (b) => expect(b.trim()).to.equal('CCO')],
      ['chemical/x-inchi', (b) => expect(b.trim()).to.equal('InChI=1S/C2H6O/c1-2-3/h3H,2H2,1H3')],
      ['chemical/x-inchikey', (b) => expect(b.trim()).to.equal('LFQSCWFLJHTTHZ-UHFFFAOYSA-N')],
      ['chemical/x-mdl-molfile', (b) => expect(b).to.match(/V2000/).and.match(/M {2}END/)],
      ['chemical/x-mdl-sdfile', (b) => expect(b).to.match(/\$\$\$\$/)],
      ['chemical/x-mol2', (b) => expect(b).to.contain('@<TRIPOS>MOLECULE')],
      ['chemical/x-cml', (b) => expect(b).to.contain('<molecule')],
      ['chemical/x-xyz', (b) => expect(b.split('\n')[0]!.trim()).to.equal('9')],
      ['image/svg+xml', (b) => expect(b).to.contain('<svg')],
      ['application/rdf+xml', (b) => expect(b).to.contain(compound)],
      ['text/turtle', (b) => expect(b).to.contain(compound)],
    ];
    // Twice round: each format is answered by both API processes.
    for (let round = 0; round < 2; round++) {
      for (const [type, check] of expected) {
        const res = await fetch(compound, { headers: { Accept: type } });
        expect(res.status, type).to.equal(200);
        expect(res.headers.get('content-type'), type).to.match(new RegExp('^' + type.replace(/[+.]/g, '\\$&')));
        check(await res.text());
      }
    }
    const png = await fetch(compound, { headers: { Accept: 'image/png' } });
    expect(png.status).to.equal(200);
    expect([...new Uint8Array(await png.arrayBuffer()).subarray(1, 4)]).to.deep.equal([0x50, 0x4e, 0x47]);
  });

  it('two API processes creating compounds at once give them different numbers', async () => {
    const smiles = ['c1ccccc1', 'CCN', 'CC(=O)O', 'CCCl'];
    // Sent together: the proxy hands them to both API processes in turn.
    const made = await Promise.all(smiles.map(async (s) => {
      const res = await fetch(base + '/compound', { method: 'POST', headers: { 'Content-Type': 'chemical/x-daylight-smiles', Accept: 'text/uri-list' }, body: s });
      expect(res.status).to.equal(200);
      return (await res.text()).trim();
    }));
    expect(new Set(made).size).to.equal(smiles.length);
    for (const [i, uri] of made.entries()) {
      const back = await fetch(uri, { headers: { Accept: 'chemical/x-daylight-smiles' } });
      expect((await back.text()).trim()).to.equal(smiles[i]);
    }
  });

  it('a compound changed, then deleted, through one API process is answered so by the other (its cache too)', async () => {
    const made = await fetch(base + '/compound', { method: 'POST', headers: { 'Content-Type': 'chemical/x-daylight-smiles', Accept: 'text/uri-list' }, body: 'CCCCO' });
    expect(made.status).to.equal(200);
    const uri = (await made.text()).trim();
    const molfiles = async () => Promise.all([0, 1].map(async () => {
      const res = await fetch(uri, { headers: { Accept: 'chemical/x-mdl-molfile' } });
      return { status: res.status, body: await res.text() };
    }));
    // Both processes have built (and cached) the molfile they compute from the SMILES.
    for (const m of await molfiles()) expect(m.status).to.equal(200);
    const put = await fetch(uri, { method: 'PUT', headers: { 'Content-Type': 'chemical/x-mdl-molfile', Accept: 'text/uri-list' }, body: BUTANOL });
    expect(put.status).to.equal(200);
    expect((await put.text()).trim()).to.equal(uri);
    // The coordinates drawn by hand, from whichever process answers.
    for (const m of await molfiles()) {
      expect(m.status).to.equal(200);
      expect(m.body).to.contain('    3.8971    0.7500    0.0000 C').and.contain('    5.1962    0.0000    0.0000 O');
    }
    const removed = await fetch(uri, { method: 'DELETE' });
    expect(removed.status).to.equal(200);
    for (const m of await molfiles()) expect(m.status).to.equal(404);
    for (let i = 0; i < 2; i++) {
      const list = await fetch(base + '/compound', { headers: { Accept: 'text/uri-list' } });
      expect((await list.text()).split('\r\n')).to.include(compound).and.not.include(uri);
    }
  });

  it('an upload runs as a task in a worker; its task answers through both API processes', async () => {
    // Over the inline limit (64 KiB), so it runs as a task; a padded column keeps it quick.
    const rows = readFileSync(sharedData('opentox-test', 'hamster_carcinogenicity.csv'), 'utf8').trim().split(/\r?\n/);
    const pad = 'x'.repeat(900);
    const csv = [rows[0] + ',Note', ...rows.slice(1).map((r, i) => `${r},${pad}${i}`)].join('\n') + '\n';
    expect(csv.length).to.be.greaterThan(64 * 1024);
    const res = await fetch(base + '/dataset', { method: 'POST', headers: { 'Content-Type': 'text/csv', Accept: 'text/uri-list' }, body: csv });
    const task = (await res.text()).trim();
    expect(res.status, task).to.be.oneOf([200, 202]);
    if (res.status === 200) {
      dataset = task;
    } else {
      expect(task.startsWith(base + '/task/')).to.equal(true);
      const seen = [await status(task), await status(task)];
      for (const s of seen) expect(s.status).to.be.oneOf([200, 201, 202]);
      const end = await finalState(task);
      expect(end.status, end.body).to.equal(200);
      dataset = end.body;
    }
    expect(dataset.startsWith(base + '/dataset/')).to.equal(true);
    for (let i = 0; i < 2; i++) {
      const compounds = await fetch(dataset + '/compounds', { headers: { Accept: 'text/uri-list' } });
      expect(compounds.status).to.equal(200);
      expect((await compounds.text()).trim().split('\n')).to.have.length(85);
    }
    // Ran in a worker: an API process started with WORKERS=0 runs no jobs.
    expect(workers.some((w) => w.log.some((l) => l.includes('task started') && l.includes('dataset-upload')))).to.equal(true);
  });

  it('compounds a worker made are found by structure search through both API processes, started before them', async () => {
    // Two rows of the uploaded CSV: exact structure search, then substructure search.
    for (let i = 0; i < 2; i++) {
      const exact = await fetch(`${base}/compound?search=${encodeURIComponent(HAMSTER_SMILES)}`, { headers: { Accept: 'text/uri-list' } });
      expect(exact.status).to.equal(200);
      const found = (await exact.text()).trim().split('\r\n').filter(Boolean);
      expect(found).to.have.length(1);
      const members = (await (await fetch(dataset + '/compounds', { headers: { Accept: 'text/uri-list' } })).text()).trim().split(/\r?\n/);
      expect(members).to.include(found[0]);
    }
  });

  it('a model built by one worker predicts in whichever worker takes the prediction', async () => {
    const features = (await (await fetch(dataset + '/features', { headers: { Accept: 'text/uri-list' } })).text()).trim().split('\n');
    const byTitle = await Promise.all(features.map(async (f) => ({ f, rdf: await (await fetch(f, { headers: { Accept: 'text/turtle' } })).text() })));
    const carcinogenicity = byTitle.find((x) => x.rdf.includes('Hamster Carcinogenicity'))?.f;
    expect(carcinogenicity, 'the feature of the CSV column').to.be.a('string');
    const build = await fetch(base + '/algorithm/knn', { method: 'POST', headers: { Accept: 'text/uri-list' }, body: new URLSearchParams({ dataset_uri: dataset, prediction_feature: carcinogenicity!, k: '3' }) });
    let body = (await build.text()).trim();
    expect(build.status, body).to.be.oneOf([200, 202]);
    if (build.status === 202) {
      const end = await finalState(body);
      expect(end.status, end.body).to.equal(200);
      body = end.body;
    }
    model = body;
    expect(model.startsWith(base + '/model/')).to.equal(true);
    for (let i = 0; i < 2; i++) {
      const predicted = await fetch(model, { method: 'POST', headers: { Accept: 'text/uri-list' }, body: new URLSearchParams({ compound_uri: compound }) });
      let out = (await predicted.text()).trim();
      expect(predicted.status, out).to.be.oneOf([200, 202]);
      if (predicted.status === 202) {
        const end = await finalState(out);
        expect(end.status, end.body).to.equal(200);
        out = end.body;
      }
      expect(out.startsWith(base + '/dataset/')).to.equal(true);
      const csv = await (await fetch(out, { headers: { Accept: 'text/csv' } })).text();
      expect(csv.trim().split('\n')).to.have.length(2);
    }
  });

  it('a worker killed mid-job: the task reaches a final state, run again by the other worker', async () => {
    const res = await fetch(base + '/dataset', { method: 'POST', headers: { 'Content-Type': 'text/csv', Accept: 'text/uri-list' }, body: readFileSync(sharedData('opentox-test', 'kazius.csv')) });
    expect(res.status).to.equal(202);
    const task = (await res.text()).trim();
    const id = task.slice(task.lastIndexOf('/') + 1);
    const holder = await until('a worker to start the upload', async () => workers.find((w) => w.log.some((l) => l.includes(id) && l.includes('task started'))), 60_000);
    holder.child.kill('SIGKILL');
    await holder.exited;
    const other = workers.find((w) => w !== holder)!;
    // The upload is idempotent (SPEC §3 restart rule), so the other worker runs it again.
    const end = await finalState(task).catch(async (e: Error) => {
      // What the task and the other worker say, for whoever reads the failure.
      const now = await (await fetch(task, { headers: { Accept: 'text/turtle' } })).text();
      throw new Error(`${e.message}\n${now}\n${other.log.slice(-15).join('\n')}\n${virtuosoState('distributed')}`);
    });
    expect(end.status, `${end.body}\n${virtuosoState('distributed')}`).to.equal(200);
    expect(end.body.startsWith(base + '/dataset/')).to.equal(true);
    expect(other.log.some((l) => l.includes(id) && l.includes('task started'))).to.equal(true);
    startWorker(workers.indexOf(holder));
  });

  it('an API process restarted finds everything', async () => {
    const api = apis[0];
    const dataDir = dirs.find((d) => d.includes('opentox-dist-api0-'))!;
    api!.child.kill('SIGTERM');
    await api!.exited;
    await startApi(0, dataDir);
    for (let i = 0; i < 2; i++) {
      for (const uri of [compound, dataset, model]) {
        const got = await fetch(uri, { headers: { Accept: 'text/turtle' } });
        expect(got.status, uri).to.equal(200);
        expect(await got.text()).to.contain(uri);
      }
    }
  });
});
