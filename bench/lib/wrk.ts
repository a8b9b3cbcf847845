// Load from another process (wrk, Debian's `wrk`), so figures are what a client sees: the
// service never shares its event loop or its cores' time slices with the load generator.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
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
