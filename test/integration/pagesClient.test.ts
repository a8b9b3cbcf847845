// The command-line client (bin/opentox.mjs) end to end: spawned as a child process against
// the real service, as a user runs it: the bin runs the client built to dist/.
import { spawn } from 'node:child_process';
import { closedPort } from '../helpers/closedPort.ts';
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { startApp, tempDir, type TestApp } from '../helpers/app.ts';
import { lines, warnings } from '../helpers/datasets.ts';
import { sharedData } from '../helpers/data.ts';
import { addUsers, PASSWORDS } from '../helpers/auth.ts';
import { buildDist } from '../helpers/build.ts';

const BIN = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bin/opentox.mjs');

interface Run { code: number | null; stdout: string; stderr: string }

/** A shell word, quoted. */
const quoted = (s: string) => `'${s.replaceAll("'", "'\\''")}'`;

/**
 * Runs the client; `terminal`: on a pseudo-terminal (util-linux script), both streams on
 * it as a user sees them, so the bars draw as on a terminal.
 */
function client(args: string[], env: Record<string, string> = {}, terminal = false): Promise<Run> {
  return new Promise((resolve, reject) => {
    const line = [process.execPath, BIN, ...args].map(quoted).join(' ');
    const command = terminal ? ['script', ['-qefc', line, '/dev/null']] as const : [process.execPath, [BIN, ...args]] as const;
    const child = spawn(command[0], [...command[1]], { env: { ...process.env, OPENTOX_TOKEN: '', ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => { stdout += c.toString(); });
    child.stderr.on('data', (c: Buffer) => { stderr += c.toString(); });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end();
  });
}

describe('opentox command-line client', function () {
  this.timeout(300_000);
  let app: TestApp;
  let config: string;
  let env: Record<string, string>;
  before(async () => {
    await buildDist();
    app = await startApp();
    config = tempDir('opentox-client-');
    env = { OPENTOX_SERVICE: app.url, XDG_CONFIG_HOME: config };
  });
  after(async () => {
    await app.close();
    rmSync(config, { recursive: true, force: true });
  });

  let hamster: string;
  it('upload: a file large enough to run as a task, with progress bars, prints the dataset URI', async () => {
    // On a terminal, where the bars redraw one line: the result must still be a line of its own.
    const run = await client(['upload', sharedData('opentox-test', 'hamster_carcinogenicity.sdf')], env, true);
    expect(run.code, run.stdout).to.equal(0);
    // What the terminal shows: escape sequences dropped, each line as last redrawn.
    const out = run.stdout.replace(/\x1b(\[[0-9;?]*[A-Za-z]|[78])/g, '').split(/\r?\n/).map((l) => l.split('\r').filter(Boolean).at(-1) ?? '');
    hamster = out.find((l) => l.startsWith(app.url)) ?? '';
    expect(hamster, run.stdout).to.match(new RegExp(`^${app.url}/dataset/\\d+$`));
    // The bars: bytes of the upload, then the task by its title with its percentage.
    expect(run.stdout).to.contain('upload [');
    expect(out.join('\n')).to.match(/^Upload of sdf to .*\[[^\]]*\] 100%$/m);
    // 85 records in the file (grep -c '\$\$\$\$'), one CSV row each under a header.
    const records = readFileSync(sharedData('opentox-test', 'hamster_carcinogenicity.sdf'), 'utf8').split('$$$$').length - 1;
    expect(await lines(hamster, 'text/csv')).to.have.length(records + 1);
  });

  let small: string;
  it('apply: an algorithm with --param, and a learner with a prediction feature; predict with the model', async () => {
    small = (await client(['upload', sharedData('opentox-test', 'hamster_carcinogenicity.mini.csv')], env)).stdout.trim();
    expect(small).to.match(/\/dataset\/\d+$/);
    const described = await client(['apply', app.url + '/algorithm/physchem', '--dataset', small, '--param', 'MW=true', '--param', 'LogP=false'], env);
    expect(described.code, described.stderr).to.equal(0);
    const header = (await lines(described.stdout.trim(), 'text/csv'))[0];
    expect(header).to.match(/MW|molecular weight/i);
    const target = (await lines(small + '/features'))[0]!;
    const built = await client(['apply', app.url + '/algorithm/knn', '-d', small, '-f', target, '-p', 'k=3', '-p', 'folds=2'], env);
    expect(built.code, built.stderr).to.equal(0);
    const model = built.stdout.trim();
    expect(model).to.match(/\/model\//);
    const predicted = await client(['predict', model, '--dataset', small], env);
    expect(predicted.code, predicted.stderr).to.equal(0);
    expect(await lines(predicted.stdout.trim(), 'text/csv')).to.have.length(11);
  });

  it('get: a format to stdout or to a file', async () => {
    const file = path.join(config, 'out.csv');
    const saved = await client(['get', small, '--format', 'csv', '-o', file], env);
    expect(saved.code, saved.stderr).to.equal(0);
    expect(readFileSync(file, 'utf8')).to.equal(await (await fetch(small, { headers: { Accept: 'text/csv' } })).text());
    const sdf = await client(['get', app.url + '/compound/1', '-F', 'smiles'], env);
    expect(sdf.stdout.trim()).to.equal('CC=O');
    const ttl = await client(['get', small, '-F', 'ttl'], env);
    expect(ttl.stdout).to.contain('@prefix');
  });

  it('tasks lists task URIs; wait follows one to its result', async () => {
    const run = await client(['tasks'], env);
    expect(run.code, run.stderr).to.equal(0);
    const all = run.stdout.split(/\r?\n/).filter(Boolean);
    expect(all.length).to.be.greaterThan(0);
    const done = await client(['tasks', '--status', 'Completed'], env);
    const task = done.stdout.split(/\r?\n/).filter(Boolean).find((t) => all.includes(t))!;
    const waited = await client(['wait', task], env);
    expect(waited.code, waited.stderr).to.equal(0);
    expect(waited.stdout.trim()).to.match(new RegExp(`^${app.url}/(dataset|model)/`));
  });

  it('algorithms by name: apply knn, validate knn; predict a model by its id', async () => {
    const target = (await lines(small + '/features'))[0]!;
    const built = await client(['apply', 'knn', '-d', small, '-f', target, '-p', 'k=3'], env);
    expect(built.code, built.stderr).to.equal(0);
    const model = built.stdout.trim();
    expect(model).to.match(new RegExp(`^${app.url}/model/\\d+$`));
    const predicted = await client(['predict', model.split('/').pop()!, '-d', small], env);
    expect(predicted.code, predicted.stderr).to.equal(0);
    expect(await lines(predicted.stdout.trim(), 'text/csv')).to.have.length(11);
    const validated = await client(['validate', 'KNN', '-d', small, '-f', target, '--folds', '2', '-p', 'k=3'], env);
    expect(validated.code, validated.stderr).to.equal(0);
    const validation = validated.stdout.trim();
    expect(validation).to.match(new RegExp(`^${app.url}/validation/`));
    // The validation names the algorithm the name stood for.
    expect(await (await fetch(validation, { headers: { Accept: 'application/n-triples' } })).text()).to.contain(`<${app.url}/algorithm/knn>`);
    const unknown = await client(['apply', 'nosuchalgorithm', '-d', small], env);
    expect(unknown.code).to.equal(1);
    expect(unknown.stderr).to.contain(`no algorithm named "nosuchalgorithm" in ${app.url}/algorithm`);
  });

  it('an upload with skipped rows prints its warnings on stderr, the dataset alone on stdout', async () => {
    const file = path.join(config, 'skips.csv');
    writeFileSync(file, 'SMILES,y\nCCO,1\n,2\nCCCO,3\n');
    const run = await client(['upload', file], env);
    expect(run.code, run.stderr).to.equal(0);
    const dataset = run.stdout.trim();
    expect(dataset).to.match(/\/dataset\/\d+$/);
    const stored = await warnings(dataset);
    expect(stored).to.have.length(1);
    expect(run.stderr).to.contain(`${dataset}: 1 warning\n  ${stored[0]}`);
    const clean = await client(['upload', sharedData('opentox-test', 'hamster_carcinogenicity.mini.csv')], env);
    expect(clean.stderr).to.equal('');
  });

  it('an unreachable service: the URL and the cause, not "fetch failed"', async () => {
    const port = await closedPort();
    const service = `http://127.0.0.1:${port}`;
    const run = await client(['tasks'], { ...env, OPENTOX_SERVICE: service });
    expect(run.code).to.equal(1);
    expect(run.stderr).to.equal(`error: cannot reach ${service}/task: connect ECONNREFUSED 127.0.0.1:${port}\n`);
    const named = await client(['apply', 'knn', '-d', small], { ...env, OPENTOX_SERVICE: service });
    expect(named.stderr).to.equal(`error: cannot reach ${service}/algorithm: connect ECONNREFUSED 127.0.0.1:${port}\n`);
  });

  const failures: Array<[string, string[], RegExp]> = [
    ['a missing resource: the RDF/XML report made readable', ['get', 'DATASET999'], /404 \w*NotFound: dataset \S+\/dataset\/999 not found/],
    ['a failed task-less POST: the report of the 400', ['apply', 'KNN', '--dataset', 'SMALL'], /400 \w+: .*prediction_feature/],
    ['a malformed --param', ['apply', 'KNN', '--dataset', 'SMALL', '--param', 'k'], /--param "k" is not of the form name=value/],
    ['an unknown format', ['get', 'SMALL', '--format', 'docx'], /unknown --format docx/],
  ];
  for (const [what, args, message] of failures) {
    it(`prints ${what} and exits 1`, async () => {
      const run = await client(args.map((a) => a.replace('DATASET999', app.url + '/dataset/999').replace('KNN', app.url + '/algorithm/knn').replace('SMALL', small)), env);
      expect(run.code).to.equal(1);
      expect(run.stderr).to.match(message).and.not.contain('<rdf:RDF');
      expect(run.stdout).to.equal('');
    });
  }
});

describe('opentox login and tokens', function () {
  this.timeout(120_000);
  let app: TestApp;
  let config: string;
  before(async () => {
    await buildDist();
    const dataDir = tempDir();
    await addUsers(dataDir);
    app = await startApp({ authMode: 'local' }, dataDir);
    config = tempDir('opentox-client-');
  });
  after(async () => {
    await app.close();
    rmSync(config, { recursive: true, force: true });
  });

  it('without a token the 401 report is printed; login saves a token (mode 600) that later commands send', async () => {
    const env = { OPENTOX_SERVICE: app.url, XDG_CONFIG_HOME: config };
    const csv = sharedData('opentox-test', 'hamster_carcinogenicity.mini.csv');
    const refused = await client(['upload', csv], env);
    expect(refused.code).to.equal(1);
    expect(refused.stderr).to.match(/401 \w+/);
    const wrong = await client(['login', '-u', 'alice'], { ...env, OPENTOX_PASSWORD: 'wrong' });
    expect(wrong.code).to.equal(1);
    expect(wrong.stderr).to.contain('wrong user name or password');
    const ok = await client(['login', '-u', 'alice'], { ...env, OPENTOX_PASSWORD: PASSWORDS.alice! });
    expect(ok.code, ok.stderr).to.equal(0);
    const file = path.join(config, 'opentox', 'tokens.json');
    expect(statSync(file).mode & 0o777).to.equal(0o600);
    const uploaded = await client(['upload', csv], env);
    expect(uploaded.code, uploaded.stderr).to.equal(0);
    expect(uploaded.stdout.trim()).to.match(/\/dataset\/\d+$/);
    // OPENTOX_TOKEN wins over the saved token.
    const token = (JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>)[app.url];
    const viaEnv = await client(['tasks'], { OPENTOX_SERVICE: app.url, XDG_CONFIG_HOME: path.join(config, 'none'), OPENTOX_TOKEN: token! });
    expect(viaEnv.code, viaEnv.stderr).to.equal(0);
  });
});
