// The shell examples of README.md and docs/*.md run as written, in order, on a fresh store.
//
// How the documents are read (writers of README.md and docs/ follow these rules):
// - Every ```sh block is run. The blocks of one file run in order in ONE bash session
//   (variables and functions carry over, as in a terminal a user pastes into), with
//   `set -e`, in a temporary directory where `examples/` is this repository's examples/.
// - ```console blocks are shown, never run: starting the service, npm scripts, and
//   commands that need another configuration (say so beside them).
// - Each file gets its own fresh server: the real app on a temporary data directory, on a
//   free port, whose BASE_URL is what `http://localhost:8080` in the text is rewritten to,
//   so the URIs it mints are the ones the text pastes. A file may configure its server
//   with a comment `<!-- examples-config: {JSON of src/config.ts Config fields} -->`;
//   DATA_DIR names the server's directory (for `npm run user`), and package.json,
//   scripts/ and node_modules/ are reachable from the working directory (for npm run).
// - Every curl call is checked: a curl answering outside 2xx (or not answering) fails the
//   test unless its command ends with `# expect NNN` (on its last line, after any
//   backslash continuations), and then it must answer exactly NNN. A call that sets its
//   own `-w` is not recorded (the README's wait_task reads the status itself and fails on
//   an error). A claim worth checking is checked in the text itself (`test "$a" = "$b"`),
//   which `set -e` turns into a failure.
// - The documents run at the same time, each in its own session against its own server.
// - EXAMPLES_LOG=dir keeps each document's stdout and stderr (with block start times) there.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tempDir } from '../helpers/tempDirs.ts';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import type { Config } from '../../src/config.ts';
import { startApp, type TestApp } from '../helpers/app.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const DOC_BASE = 'http://localhost:8080';
// The documents together took 70 to 100 s on a 2-core machine shared with other work (load
// average 23 to 27), most of it toolkits loading in worker threads; past this limit a
// document's run is killed and fails.
const BASH_LIMIT_MS = 200_000;

/** The ```sh blocks of a Markdown text, in order. */
export function shellBlocks(markdown: string): string[] {
  const blocks: string[] = [];
  const fence = /^```sh[ \t]*\n([\s\S]*?)^```[ \t]*$/gm;
  for (let m = fence.exec(markdown); m; m = fence.exec(markdown)) blocks.push(m[1]!);
  return blocks;
}

/**
 * A command whose last line ends in `# expect NNN` runs its curl with that expectation
 * (lines ending in a backslash continue the command).
 */
function markExpectations(script: string): string {
  const out: string[] = [];
  let command: string[] = [];
  for (const line of script.split('\n')) {
    command.push(line);
    if (line.endsWith('\\')) continue;
    const m = /#\s*expect\s+(\d{3})\s*$/.exec(line);
    const text = command.join('\n');
    out.push(m ? text.replace(/(^|[\s(|;&])curl /, `$1OT_EXPECT=${m[1]} curl `) : text);
    command = [];
  }
  out.push(...command);
  return out.join('\n');
}

// Records each call's status on stderr; the user's own -w (given later) replaces it.
const PRELUDE = `set -e
curl() { command curl --no-progress-meter -w "%{stderr}\\n@@curl \${OT_EXPECT:-2xx} %{http_code} %{url_effective}\\n" "$@"; }
`;

interface Run { code: number | null; stdout: string; stderr: string }

function runBash(script: string, cwd: string, timeoutMs: number, env: Record<string, string>): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', script], { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => { stdout += d.toString(); });
    child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code) => { clearTimeout(timer); resolve({ code, stdout, stderr }); });
  });
}

/** The server settings a document asks for in an `examples-config` comment. */
function serverConfig(markdown: string): Partial<Config> {
  const m = /<!--\s*examples-config:\s*(\{.*?\})\s*-->/.exec(markdown);
  return m ? (JSON.parse(m[1]!) as Partial<Config>) : {};
}

/** Curl calls whose status is not what the text expects. */
function unexpected(stderr: string): string[] {
  const calls = [...stderr.matchAll(/@@curl (\S+) (\d{3}) (\S*)/g)];
  return calls.filter(([, want, got]) => (want === '2xx' ? !/^2\d\d$/.test(got!) : got !== want))
    .map(([, want, got, url]) => `${url}: ${got}, expected ${want}`);
}

interface DocumentRun { result: Run; cleanup: () => Promise<void> }

/** Starts a fresh server for `doc`, runs its blocks in one bash session, stops the server. */
async function runDocument(doc: string): Promise<DocumentRun> {
  const text = readFileSync(path.join(ROOT, doc), 'utf8');
  const app: TestApp = await startApp(serverConfig(text));
  const dir = tempDir('opentox-examples-');
  const cleanup = async () => {
    await app.close();
    if (existsSync(dir)) rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (const f of ['examples', 'package.json', 'scripts', 'node_modules']) symlinkSync(path.join(ROOT, f), path.join(dir, f));
    const blocks = shellBlocks(text).map((b, i) => `echo "@@block ${i + 1} $(date +%s.%N)" >&2\n${markExpectations(b)}`);
    const script = blocks.join('\n').replaceAll(DOC_BASE, app.url);
    const result = await runBash(PRELUDE + script, dir, BASH_LIMIT_MS, { DATA_DIR: app.dataDir });
    return { result, cleanup };
  } catch (e) {
    await cleanup();
    throw e;
  }
}

const documents = ['README.md', ...readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)]
  .filter((f) => shellBlocks(readFileSync(path.join(ROOT, f), 'utf8')).length > 0);

describe('shell examples of the README and docs/', function () {
  this.timeout(120_000);

  it('keeps the README a first page, and every relative link of README and docs/ resolves', () => {
    expect(readFileSync(path.join(ROOT, 'README.md'), 'utf8').split('\n').length).to.be.below(250);
    const broken: string[] = [];
    for (const doc of ['README.md', ...readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)]) {
      // Code (fenced or inline) is not prose: SMILES such as C[C@H](N)C look like links.
      const text = readFileSync(path.join(ROOT, doc), 'utf8').replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
      for (const [, target] of text.matchAll(/\]\(([^)#\s]+)(#[^)]*)?\)/g)) {
        if (/^[a-z]+:/.test(target!)) continue;
        if (!existsSync(path.resolve(ROOT, path.dirname(doc), target!))) broken.push(`${doc}: ${target}`);
      }
    }
    expect(broken).to.deep.equal([]);
  });

  it('finds the examples: the README tour and the reference', () => {
    expect(documents).to.include('README.md');
    expect(documents).to.include('docs/endpoints.md');
    expect(shellBlocks('a\n```sh\necho 1\n```\n```console\nno\n```\n```sh\necho 2\n```\n')).to.deep.equal(['echo 1\n', 'echo 2\n']);
    expect(markExpectations('x=$(curl -s u) # expect 404')).to.equal('x=$(OT_EXPECT=404 curl -s u) # expect 404');
    expect(markExpectations('curl -d a \\\n  u  # expect 400\ncurl v')).to.equal('OT_EXPECT=400 curl -d a \\\n  u  # expect 400\ncurl v');
  });

  describe('runs the examples of each document', runExamples);
});

function runExamples(this: Mocha.Suite): void {
  this.timeout(BASH_LIMIT_MS + 30_000);
  // The documents run at the same time, each on its own server: most of their time is
  // spent waiting for tasks, so together they take about as long as the longest one.
  const started = new Map<string, Promise<DocumentRun>>();
  before(() => {
    for (const doc of documents) {
      const running = runDocument(doc);
      running.catch(() => {}); // reported by the document's own test
      started.set(doc, running);
    }
  });
  after(async () => {
    for (const running of started.values()) await running.then((r) => r.cleanup(), () => {});
  });

  for (const doc of documents) {
    it(`${doc}: runs every sh block in order, each curl answering as the text says`, async () => {
      const run = (await started.get(doc)!).result;
      if (process.env.EXAMPLES_LOG) {
        const base = path.join(process.env.EXAMPLES_LOG, doc.replaceAll('/', '_'));
        writeFileSync(`${base}.out`, run.stdout);
        writeFileSync(`${base}.err`, run.stderr);
      }
      const tail = `\n--- stdout (end) ---\n${run.stdout.slice(-3000)}\n--- stderr (end) ---\n${run.stderr.slice(-3000)}`;
      expect(unexpected(run.stderr), `unexpected answers${tail}`).to.deep.equal([]);
      expect(run.code, `bash exit status${tail}`).to.equal(0);
      expect(run.stderr, 'no curl call was recorded').to.match(/@@curl /);
    });
  }
}
