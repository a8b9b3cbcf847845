// The service's start as a user meets it: `npm start` on an empty store, timed from the spawn
// to the first 200 on GET /, and the RSS of its processes (npm, its shell, node and what node
// starts) SETTLE_S seconds after the spawn. The baseline is the same code started from its
// sources under tsx (`node --import tsx src/main.ts`, as `npm start` ran it before the build),
// under npm the same way.
import { execFile, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { BenchModule, BenchRow } from './types.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SETTLE_S = 30;
const ROUNDS = 3;

interface Start { firstMs: number; treeMiB: number; nodeMiB: number }

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** RSS in KiB of `root` and all its descendants, and of the one whose command matches `node`. */
function treeRss(root: number, node: RegExp): { tree: number; node: number } {
  const rows = execFileSync('ps', ['-e', '-o', 'pid=,ppid=,rss=,args='], { encoding: 'utf8' }).trim().split('\n').map((l) => {
    const [pid, ppid, rss, ...args] = l.trim().split(/\s+/);
    return { pid: Number(pid), ppid: Number(ppid), rss: Number(rss), args: args.join(' ') };
  });
  const tree = new Set([root]);
  for (let grew = true; grew;) {
    grew = false;
    for (const r of rows) {
      if (tree.has(r.ppid) && !tree.has(r.pid)) {
        tree.add(r.pid);
        grew = true;
      }
    }
  }
  const mine = rows.filter((r) => tree.has(r.pid));
  return { tree: mine.reduce((s, r) => s + r.rss, 0), node: mine.find((r) => r.args.startsWith('node ') && node.test(r.args))?.rss ?? NaN };
}

/** One start of `npm npmArgs` on a fresh data directory. */
async function start(npmArgs: string[], node: RegExp): Promise<Start> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'opentox-bench-start-'));
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const env = { ...process.env, MALLOC_ARENA_MAX: '2', DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn' };
  const began = performance.now();
  const child = spawn('npm', npmArgs, { cwd: ROOT, env, detached: true, stdio: 'ignore' });
  try {
    let firstMs = NaN;
    while (Number.isNaN(firstMs)) {
      if (child.exitCode !== null) throw new Error(`npm ${npmArgs.join(' ')} exited with ${child.exitCode}`);
      const ok = await fetch(`http://127.0.0.1:${port}/`).then((r) => { void r.body?.cancel(); return r.status === 200; }, () => false);
      if (ok) firstMs = performance.now() - began;
      else await new Promise((r) => setTimeout(r, 25));
    }
    await new Promise((r) => setTimeout(r, SETTLE_S * 1000 - (performance.now() - began)));
    const rss = treeRss(child.pid!, node);
    return { firstMs, treeMiB: rss.tree / 1024, nodeMiB: rss.node / 1024 };
  } finally {
    const exited = new Promise((r) => child.once('exit', r));
    process.kill(-child.pid!, 'SIGTERM');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const fmt = (x: number, digits = 0) => x.toLocaleString('en', { maximumFractionDigits: digits, minimumFractionDigits: digits });

const bench: BenchModule = {
  title: 'Start (npm start, empty store)',
  async run(): Promise<BenchRow[]> {
    await promisify(execFile)('npm', ['run', 'build'], { cwd: ROOT });
    const built: Start[] = [];
    const sources: Start[] = [];
    // Alternated, so that both see the same machine.
    for (let i = 0; i < ROUNDS; i++) {
      built.push(await start(['start'], /dist\/main\.js/));
      sources.push(await start(['exec', '--', 'node', '--import', 'tsx', 'src/main.ts'], /src\/main\.ts/));
    }
    const m = (runs: Start[], key: keyof Start) => median(runs.map((r) => r[key]));
    const load = os.loadavg().map((x) => fmt(x, 1)).join(' ');
    return [
      { bench: `start to the first 200 on GET /, median of ${ROUNDS} (load ${load})`, figure: `${fmt(m(built, 'firstMs') / 1000, 1)} s (${built.map((r) => fmt(r.firstMs / 1000, 1)).join(', ')})`, baseline: `from the sources under tsx: ${fmt(m(sources, 'firstMs') / 1000, 1)} s`, ratio: `${fmt(m(built, 'firstMs') / m(sources, 'firstMs'), 2)}×; goal ≤ 4 s` },
      { bench: `RSS of npm start's processes ${SETTLE_S} s after the spawn, median of ${ROUNDS}`, figure: `${fmt(m(built, 'treeMiB'))} MiB (node alone ${fmt(m(built, 'nodeMiB'))} MiB)`, baseline: `from the sources under tsx: ${fmt(m(sources, 'treeMiB'))} MiB (node ${fmt(m(sources, 'nodeMiB'))} MiB)`, ratio: `${fmt(m(built, 'treeMiB') / m(sources, 'treeMiB'), 2)}×; goal ≤ 350 MB` },
    ];
  },
};

export default bench;
