// The service and its baselines as child processes on loopback, so that a load generator
// in a third process measures each from outside.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface Running {
  url: string;
  process: ChildProcess;
  stop: () => Promise<void>;
  /** The last lines the process wrote (its log at LOG_LEVEL), to explain a failure. */
  logged: string[];
}

/** Keeps the last `n` lines a child process writes to `streams` (to explain a failure). */
export function lastLines(streams: ReadonlyArray<NodeJS.ReadableStream | null>, n: number): string[] {
  const lines: string[] = [];
  for (const stream of streams) {
    stream?.on('data', (d: Buffer) => {
      lines.push(...d.toString().split('\n').filter(Boolean));
      lines.splice(0, Math.max(0, lines.length - n));
    });
  }
  return lines;
}

/**
 * Starts `node args`, ready when it prints LISTENING <port>, or, with `readyUrl`, once that
 * URL answers (the service logs its start at info, which LOG_LEVEL=warn leaves out).
 */
function startNode(args: string[], env: Record<string, string>, cleanup: () => void = () => {}, readyUrl?: string): Promise<Running> {
  // MALLOC_ARENA_MAX as `npm start` sets it (package.json; docs/configuration.md). BENCH_NODE_ARGS:
  // node flags for the child, such as --cpu-prof (refused in NODE_OPTIONS), to see where it spends.
  const child = spawn(process.execPath, [...(process.env.BENCH_NODE_ARGS?.split(' ').filter(Boolean) ?? []), '--import', 'tsx', ...args], { cwd: ROOT, env: { MALLOC_ARENA_MAX: '2', ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr!.on('data', (d: Buffer) => { err += d.toString(); });
  const logged = lastLines([child.stdout, child.stderr], 50);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    let out = '';
    let done = false;
    const ready = (url: string) => {
      if (done) return;
      done = true;
      resolve({
        url,
        process: child,
        logged,
        stop: async () => {
          child.kill('SIGTERM');
          const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
          await exited;
          clearTimeout(timer);
          cleanup();
        },
      });
    };
    child.stdout!.on('data', (d: Buffer) => {
      if (done) return;
      out += d.toString();
      const m = /LISTENING (\d+)|OpenTox service at (\S+)/.exec(out);
      if (m) ready(m[1] ? `http://127.0.0.1:${m[1]}` : m[2]!); // one of the two alternatives matched
    });
    if (readyUrl) {
      const poll = () => {
        if (done) return;
        fetch(readyUrl).then((r) => { void r.body?.cancel(); ready(readyUrl); }, () => setTimeout(poll, 250));
      };
      poll();
    }
    void exited.then(() => { done = true; reject(new Error(`${args[0]} exited before listening: ${err.slice(-2000)}`)); });
  });
}

/** The real service (`npm start`) on a fresh temp data dir and a free port. */
export async function startService(env: Record<string, string> = {}): Promise<Running & { dataDir: string }> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'opentox-bench-'));
  const port = String(20_000 + Math.floor(Math.random() * 20_000));
  const url = `http://127.0.0.1:${port}`;
  const running = await startNode(['src/main.ts'], { DATA_DIR: dataDir, PORT: port, HOST: '127.0.0.1', BASE_URL: url, LOG_LEVEL: 'warn', ...env }, () => rmSync(dataDir, { recursive: true, force: true }), url);
  return { ...running, dataDir };
}

/** A bare Koa app serving `body` as `type`: the baseline of a figure. */
export async function startBare(body: Buffer | string, type: string): Promise<Running> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'opentox-bare-'));
  const file = path.join(dir, 'body');
  writeFileSync(file, body);
  return startNode(['bench/lib/bareServer.ts', file, type], {}, () => rmSync(dir, { recursive: true, force: true }));
}
