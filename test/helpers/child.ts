// Spawns test/helpers/server.ts as a separate process on a data directory.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'server.ts');

export interface Child {
  url: string;
  process: ChildProcess;
  /** Resolves with the exit code or signal once the process has ended. */
  exited: Promise<string>;
}

export async function startChild(dataDir: string, env: Record<string, string> = {}): Promise<Child> {
  const child = spawn(process.execPath, ['--import', 'tsx', SCRIPT], {
    env: { ...process.env, LOG_LEVEL: 'warn', DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', BASE_URL: 'http://durable.example', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<string>((resolve) => child.once('exit', (code, signal) => resolve(signal ?? String(code))));
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => { stderr += d.toString(); });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /LISTENING (\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    void exited.then((how) => reject(new Error(`server exited (${how}) before listening: ${stderr}`)));
  });
  return { url: `http://127.0.0.1:${port}`, process: child, exited };
}
