// Everything under DATA_DIR is private: directories 0700, files 0600, whatever the umask
// (src/files/privateFiles.ts); a DATA_DIR that others could read is made private at start
// and the log says so (src/dataDir.ts).
import { expect } from 'chai';
import { chmodSync, lstatSync, mkdirSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startApp, tempDir } from '../helpers/app.ts';
import { addUsers, login } from '../helpers/auth.ts';
import { until } from '../helpers/until.ts';

/** Every directory and file under `dir` (itself included) with its permission bits. */
function modes(dir: string): Array<{ path: string; dir: boolean; mode: number }> {
  const all = [];
  const pending = [dir];
  for (let p = pending.pop(); p !== undefined; p = pending.pop()) {
    const stat = lstatSync(p);
    all.push({ path: p, dir: stat.isDirectory(), mode: stat.mode & 0o777 });
    if (stat.isDirectory()) for (const name of readdirSync(p)) pending.push(path.join(p, name));
  }
  return all;
}

/** POSTs with the token; follows the task it answers to its result URI. */
async function post(url: string, subjectid: string, body: string | URLSearchParams, type?: string): Promise<string> {
  const headers: Record<string, string> = { Accept: 'text/uri-list', subjectid, ...(type ? { 'Content-Type': type } : {}) };
  let res = await fetch(url, { method: 'POST', headers, body });
  while (res.status === 202) {
    const task = (await res.text()).trim();
    await new Promise((r) => setTimeout(r, 100));
    res = await fetch(task, { headers: { Accept: 'text/uri-list', subjectid } });
  }
  const text = (await res.text()).trim();
  expect(res.status, `${url}: ${text}`).to.equal(200);
  return text;
}

/** Ethanol with 2D coordinates: a structure file is kept for it (src/compounds/compounds.ts keepsFile). */
const ETHANOL = [
  '', '  drawn', '',
  '  3  2  0  0  0  0  0  0  0  0999 V2000',
  '    0.0000    0.0000    0.0000 C   0  0  0  0  0  0  0  0  0  0  0  0',
  '    1.2990    0.7500    0.0000 C   0  0  0  0  0  0  0  0  0  0  0  0',
  '    2.5981    0.0000    0.0000 O   0  0  0  0  0  0  0  0  0  0  0  0',
  '  1  2  1  0',
  '  2  3  1  0',
  'M  END', '',
].join('\n');

const octal = (m: number) => m.toString(8).padStart(4, '0');

describe('files at rest are private', function () {
  this.timeout(120_000);
  let umask: number;
  // The usual umask (022) would leave files 0644: the modes must not depend on it.
  beforeEach(() => { umask = process.umask(0o022); });
  afterEach(() => { process.umask(umask); });

  it('a compound, an upload, a user, a token, a model and snapshots are 0600 in 0700 directories', async () => {
    const dir = path.join(tempDir(), 'data');
    await addUsers(dir);
    const app = await startApp({ authMode: 'local', loginRateLimit: 0, snapshotEvery: 5 }, dir);
    const embedded = app.deps.store.kind === 'embedded';
    try {
      const subjectid = await login(app.url, 'alice');
      await post(app.url + '/compound', subjectid, ETHANOL, 'chemical/x-mdl-molfile');
      const csv = 'SMILES,logP,Note\nCCO,-0.31,x\nc1ccccc1,2.13,y\nCCCC,2.89,z\nCC(=O)O,-0.17,w\n';
      const dataset = await post(app.url + '/dataset', subjectid, csv, 'text/csv');
      const triples = await (await fetch(dataset, { headers: { Accept: 'application/n-triples', subjectid } })).text();
      const numeric = triples.split('\n').find((l) => l.includes('#NumericFeature>'))!;
      const target = numeric.slice(1, numeric.indexOf('>'));
      await post(app.url + '/algorithm/knn', subjectid, new URLSearchParams({ dataset_uri: dataset, prediction_feature: target }));
      if (embedded) await until('a snapshot', () => readdirSync(path.join(dir, 'store')).some((n) => /^snapshot\.\d+\.nq$/.test(n)), 30_000);
    } finally {
      await app.close({ keepData: true });
    }
    const found = modes(dir);
    const names = found.map((f) => path.relative(dir, f.path));
    // The remote mode keeps the store, structure files and models in the shared engines; here only what each process keeps for itself.
    const expected = embedded ? ['users.json', 'tokens.json', 'search/', 'structures/', 'models/', 'store/journal.', 'store/snapshot.'] : ['users.json', 'tokens.json', 'search/'];
    for (const name of expected) expect(names.some((n) => n.startsWith(name)), `${name} in ${names.join(', ')}`).to.equal(true);
    const open = found.filter((f) => f.mode !== (f.dir ? 0o700 : 0o600)).map((f) => `${octal(f.mode)} ${path.relative(dir, f.path)}`);
    expect(open).to.deep.equal([]);
  });

  it('a DATA_DIR others can read (0755, a 0644 file) is made private at start, with a warning', async () => {
    const dir = tempDir();
    mkdirSync(path.join(dir, 'store'));
    writeFileSync(path.join(dir, 'store', 'notes.txt'), 'written before files were private\n');
    chmodSync(path.join(dir, 'store', 'notes.txt'), 0o644);
    chmodSync(path.join(dir, 'store'), 0o755);
    chmodSync(dir, 0o755);
    // Not the service's: left as it is (no one else can reach it once DATA_DIR is 0700).
    writeFileSync(path.join(dir, 'operator-notes.txt'), 'mine\n');
    chmodSync(path.join(dir, 'operator-notes.txt'), 0o644);
    // A link is not followed: its target is outside DATA_DIR.
    const outside = path.join(tempDir(), 'shared.txt');
    writeFileSync(outside, 'elsewhere\n');
    chmodSync(outside, 0o644);
    symlinkSync(outside, path.join(dir, 'store', 'link'));
    const app = await startApp({}, dir);
    try {
      expect(statSync(outside).mode & 0o777).to.equal(0o644);
      expect(statSync(dir).mode & 0o777).to.equal(0o700);
      expect(statSync(path.join(dir, 'operator-notes.txt')).mode & 0o777).to.equal(0o644);
      expect(statSync(path.join(dir, 'store')).mode & 0o777).to.equal(0o700);
      expect(statSync(path.join(dir, 'store', 'notes.txt')).mode & 0o777).to.equal(0o600);
      const warned = app.logged.find((l) => typeof l.msg === 'string' && l.msg.includes('was readable by others'));
      expect(warned, JSON.stringify(app.logged)).to.include({ level: 'warn', fixed: 3 });
    } finally {
      await app.close({ keepData: true });
    }
    // A second start finds nothing to fix and says nothing.
    const again = await startApp({}, dir);
    try {
      expect(again.logged.filter((l) => String(l.msg).includes('readable by others'))).to.deep.equal([]);
    } finally {
      await again.close();
    }
  });
});
