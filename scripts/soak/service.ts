// The service under test: `node --import tsx src/main.ts` as a child process on a loopback
// port and a data directory, with what /proc says about it (RSS, open files).
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

// A soak that fails takes its services with it rather than leaving them listening.
const live = new Set<ChildProcess>();
process.on('exit', () => { for (const c of live) c.kill('SIGKILL'); });

export interface Service {
  url: string;
  pid: number;
  dataDir: string;
  /** Resolves with the exit code or signal once the process has ended. */
  exited: Promise<string>;
  /** What the service wrote to stderr (its log at warn and above goes to stdout). */
  stderr: () => string;
  kill: (signal?: NodeJS.Signals) => Promise<string>;
}

/** A port nobody listens on now (the service binds it a moment later). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    }).on('error', reject);
  });
}

/** Starts the service and resolves once it answers GET /. */
export async function startService(dataDir: string, env: Record<string, string> = {}, port?: number): Promise<Service> {
  const p = port ?? await freePort();
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src/main.ts')], {
    cwd: ROOT,
    // MALLOC_ARENA_MAX as `npm start` sets it (package.json; docs/configuration.md).
    env: { MALLOC_ARENA_MAX: '2', ...process.env, LOG_LEVEL: 'warn', DATA_DIR: dataDir, PORT: String(p), HOST: '127.0.0.1', BASE_URL: `http://127.0.0.1:${p}`, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => { stderr = (stderr + d.toString()).slice(-20_000); });
  live.add(child);
  const exited = new Promise<string>((resolve) => child.once('exit', (code, signal) => { live.delete(child); resolve(signal ?? String(code)); }));
  let dead = false;
  void exited.then(() => { dead = true; });
  const url = `http://127.0.0.1:${p}`;
  for (const started = Date.now(); ; await sleep(200)) {
    if (dead) throw new Error(`the service exited before answering: ${stderr}`);
    if (Date.now() - started > 120_000) throw new Error(`the service did not answer within 120 s: ${stderr}`);
    try {
      const res = await fetch(`${url}/`, { headers: { Accept: 'text/uri-list' } });
      await res.arrayBuffer();
      if (res.ok) break;
    } catch { /* not listening yet */ }
  }
  return {
    url, pid: child.pid!, dataDir, exited, stderr: () => stderr,
    kill: async (signal: NodeJS.Signals = 'SIGTERM') => {
      if (!dead) child.kill(signal);
      return exited;
    },
  };
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Resident set size of a process in MiB (VmRSS in /proc/PID/status). */
export function rssMiB(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

/** Open file descriptors of a process (entries of /proc/PID/fd). */
export function openFds(pid: number): number {
  return readdirSync(`/proc/${pid}/fd`).length;
}

/** Files left in DATA_DIR/uploads (bodies saved for upload jobs). */
export function uploadFiles(dataDir: string): string[] {
  try {
    return readdirSync(path.join(dataDir, 'uploads'));
  } catch {
    return [];
  }
}

/** Samples RSS every second until stopped. */
export function sampleRss(pid: number): { stop: () => number[] } {
  const samples: number[] = [];
  const take = () => { try { samples.push(rssMiB(pid)); } catch { /* process gone */ } };
  take();
  const timer = setInterval(take, 1000);
  return { stop: () => { clearInterval(timer); take(); return samples; } };
}

/** `npm run check-store -- --data-dir DIR` (the service stopped): its last line, and whether it passed. */
export function checkStore(dataDir: string): { ok: boolean; output: string } {
  try {
    const out = execFileSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'scripts/check-store.ts'), '--data-dir', dataDir], { cwd: ROOT, stdio: 'pipe', encoding: 'utf8' });
    return { ok: true, output: out.trim() };
  } catch (e) {
    const err = e as { stdout?: string; stderr?: string; message: string };
    return { ok: false, output: `${err.stdout ?? ''}${err.stderr ?? ''}`.trim() || err.message };
  }
}
