// Starts redis-server (Debian's redis-server) from a directory of its own on a free
// loopback port, for the tests and benchmarks of the distributed job queue and for local
// development (`npm run engines`).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { connect } from 'node:net';
import path from 'node:path';
import { freePort, waitFor } from './ports.ts';

export const REDIS_BIN = process.env.REDIS_BIN ?? '/usr/bin/redis-server';

export interface Redis {
  url: string;
  port: number;
  process: ChildProcess;
  stop: () => Promise<void>;
}

function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.setTimeout(1000, () => { socket.destroy(); resolve(false); });
    socket.once('error', () => resolve(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (d) => { socket.destroy(); resolve(d.toString().startsWith('+PONG')); });
  });
}

/**
 * Starts Redis with append-only persistence in `dir` (BullMQ needs noeviction), on a free
 * port or on `port` (a test that restarts Redis where its clients expect it).
 */
export async function startRedis(dir: string, options: { port?: number } = {}): Promise<Redis> {
  if (!existsSync(REDIS_BIN)) throw new Error(`${REDIS_BIN} is missing: apt-get install redis-server`);
  mkdirSync(dir, { recursive: true });
  const port = options.port ?? (await freePort());
  const child = spawn(REDIS_BIN, [
    '--port', String(port), '--bind', '127.0.0.1', '--dir', path.resolve(dir),
    '--appendonly', 'yes', '--appendfsync', 'everysec', '--save', '',
    '--maxmemory-policy', 'noeviction', '--protected-mode', 'yes',
  ], { stdio: 'ignore' });
  let dead = false;
  const exited = new Promise<void>((resolve) => child.once('exit', () => { dead = true; resolve(); }));
  await waitFor('Redis', async () => {
    if (dead) throw new Error('redis-server exited');
    return ping(port);
  }, 20_000);
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    process: child,
    stop: async () => {
      if (!dead) child.kill('SIGKILL');
      await exited;
    },
  };
}
