// Load from another process (wrk, Debian's `wrk`), so figures are what a client sees: the
// service never shares its event loop or its cores' time slices with the load generator.
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
export const WRK_BIN = process.env.WRK_BIN ?? '/usr/bin/wrk';

export interface WrkOptions {
  connections?: number;
  seconds?: number;
  threads?: number;
  headers?: Record<string, string>;
}

export interface WrkResult {
  requestsPerSecond: number;
  /** Latency percentiles in milliseconds. */
  p50: number;
  p99: number;
  /** Responses with a status outside 2xx/3xx, and socket errors. */
  errors: number;
}

/** wrk prints durations as 1.23ms, 456.00us or 1.02s. */
function ms(text: string): number {
  const m = /^([\d.]+)(us|ms|s|m)$/.exec(text.trim());
  if (!m) throw new Error(`cannot read wrk duration "${text}"`);
  const n = Number(m[1]);
  return m[2] === 'us' ? n / 1000 : m[2] === 'ms' ? n : m[2] === 's' ? n * 1000 : n * 60_000;
}

export async function wrk(url: string, options: WrkOptions = {}): Promise<WrkResult> {
  if (!existsSync(WRK_BIN)) throw new Error(`${WRK_BIN} is missing: apt-get install wrk`);
  const args = ['--latency', '-t', String(options.threads ?? 1), '-c', String(options.connections ?? 16), '-d', `${options.seconds ?? 5}s`];
  for (const [k, v] of Object.entries(options.headers ?? {})) args.push('-H', `${k}: ${v}`);
  const { stdout } = await run(WRK_BIN, [...args, url], { maxBuffer: 1 << 20 });
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(stdout);
  const p50 = /^\s+50%\s+(\S+)/m.exec(stdout);
  const p99 = /^\s+99%\s+(\S+)/m.exec(stdout);
  if (!rps || !p50 || !p99) throw new Error(`cannot read wrk output:\n${stdout}`);
  const non2xx = /Non-2xx or 3xx responses:\s+(\d+)/.exec(stdout);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(stdout);
  const errors = Number(non2xx?.[1] ?? 0) + (socket ? socket.slice(1).reduce((a, b) => a + Number(b), 0) : 0);
  return { requestsPerSecond: Number(rps[1]), p50: ms(p50[1]!), p99: ms(p99[1]!), errors };
}

export interface BodiesResult {
  /** Responses counted (one per body), and those answered 200. */
  responses: number;
  ok: number;
  seconds: number;
}

/**
 * POSTs every one of `bodies` once (one line each), `connections` at a time, with wrk and
 * bodies.lua: the time from the first request until the last of them is answered. `spare`
 * bodies (at least one per connection) go to the connections that send again while the
 * last are in flight; they load the service as the others do, but are not counted.
 */
export async function wrkBodies(url: string, contentType: string, bodies: readonly string[], spare: readonly string[], connections: number): Promise<BodiesResult> {
  if (!existsSync(WRK_BIN)) throw new Error(`${WRK_BIN} is missing: apt-get install wrk`);
  if (spare.length < connections) throw new Error(`wrkBodies: ${spare.length} spare bodies for ${connections} connections`);
  if ([...bodies, ...spare].some((b) => b.includes('\n'))) throw new Error('wrkBodies: a body spans lines');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'opentox-wrk-'));
  try {
    const file = path.join(dir, 'bodies');
    writeFileSync(file, [...bodies, ...spare].join('\n') + '\n');
    const script = fileURLToPath(new URL('./bodies.lua', import.meta.url));
    // bodies.lua prints its line at the last counted response; wrk would then idle to the
    // end of -d, so it is stopped here once the line is read.
    const child = spawn(WRK_BIN, ['-t', '1', '-c', String(connections), '-d', '600s', '-s', script, url, '--', file, String(bodies.length), contentType], { stdio: ['ignore', 'pipe', 'pipe'] });
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    let out = '';
    const line = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /^BODIES (\{.*\})$/m.exec(out);
        if (m) resolve(m[1]!);
      });
      child.stderr.on('data', (d: Buffer) => { out += d.toString(); });
      void exited.then(() => reject(new Error(`wrk ended before the last response:\n${out}`)));
    }).finally(() => child.kill('SIGKILL'));
    await exited;
    const result = JSON.parse(line) as { responses: number; ok: number; microseconds: number };
    return { responses: result.responses, ok: result.ok, seconds: result.microseconds / 1e6 };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
