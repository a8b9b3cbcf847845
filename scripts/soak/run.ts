// npm run soak [-- --short] [-- --steady]: load, a steady state, slow and broken clients, kills at random points, a full
// disk, each against the real service in a child process on a temp data directory; prints a table.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runLoad } from './load.ts';
import { runSlow } from './slow.ts';
import { runSteady, steadyEnv } from './steady.ts';
import { runKills } from './kill.ts';
import { runDiskFull } from './diskFull.ts';
import { runStoreKills } from './killStore.ts';
import { startService } from './service.ts';
import { report, steadyReport, type SoakResult } from './table.ts';

export interface SoakOptions {
  mode: 'short' | 'full';
  connections: number;
  loadSeconds: number;
  /** The steady phase (scripts/soak/steady.ts): its connections and length. */
  steadyConnections: number;
  steadySeconds: number;
  slow: number;
  broken: number;
  slowSeconds: number;
  /** Clients that submit a descriptor job and vanish, and the slow phase's JOB_QUOTA. */
  abandoned: number;
  jobQuota: number;
  kills: number;
  killWindowMs: number;
  settleMs: number;
  /** Time limits of the slow phase's service (REQUEST_TIMEOUT_MS, HEADERS_TIMEOUT_MS). */
  requestTimeoutMs: number;
  headersTimeoutMs: number;
  /** Disk-full cycles (fill, write, free, restart) and writes attempted in each while full. */
  diskFullCycles: number;
  writesWhileFull: number;
}

export const MODES: Record<'short' | 'full', SoakOptions> = {
  short: { mode: 'short', connections: 20, loadSeconds: 15, steadyConnections: 8, steadySeconds: 20, slow: 40, broken: 6, slowSeconds: 12, abandoned: 12, jobQuota: 4, kills: 2, killWindowMs: 6000, settleMs: 0, requestTimeoutMs: 8000, headersTimeoutMs: 4000, diskFullCycles: 2, writesWhileFull: 16 },
  full: { mode: 'full', connections: 200, loadSeconds: 180, steadyConnections: 32, steadySeconds: 900, slow: 500, broken: 40, slowSeconds: 60, abandoned: 60, jobQuota: 10, kills: 20, killWindowMs: 15_000, settleMs: 60_000, requestTimeoutMs: 30_000, headersTimeoutMs: 10_000, diskFullCycles: 10, writesWhileFull: 40 },
};

const tempDir = () => mkdtempSync(path.join(os.tmpdir(), 'opentox-soak-'));

export async function soak(options: SoakOptions, log: (line: string) => void = () => undefined): Promise<SoakResult> {
  const dirs: string[] = [];
  const dir = () => { const d = tempDir(); dirs.push(d); return d; };
  try {
    log(`load: ${options.connections} connections for ${options.loadSeconds} s`);
    let service = await startService(dir());
    const load = await runLoad(service, options.connections, options.loadSeconds);
    await service.kill();
    log(`steady state: ${options.steadyConnections} connections for ${options.steadySeconds} s, leaving the store as it was`);
    const steadyDir = dir();
    service = await startService(steadyDir, steadyEnv(steadyDir));
    const steady = await runSteady(service, options.steadyConnections, options.steadySeconds);
    await service.kill();
    log(`slow clients: ${options.slow} trickling, ${options.broken} broken uploads and downloads, ${options.abandoned} abandoned jobs`);
    service = await startService(dir(), { REQUEST_TIMEOUT_MS: String(options.requestTimeoutMs), HEADERS_TIMEOUT_MS: String(options.headersTimeoutMs), JOB_QUOTA: String(options.jobQuota) });
    const slow = await runSlow(service, { slow: options.slow, broken: options.broken, seconds: options.slowSeconds, abandoned: options.abandoned, jobQuota: options.jobQuota });
    await service.kill();
    log(`kills during uploads: ${options.kills}`);
    const uploads = await runKills('upload', dir(), { kills: options.kills, windowMs: options.killWindowMs, settleMs: options.settleMs });
    log(`kills during random-forest builds: ${options.kills}`);
    const models = await runKills('model', dir(), { kills: options.kills, windowMs: options.killWindowMs, settleMs: options.settleMs });
    log(`kills while a snapshot is written: ${options.kills}`);
    const snapshots = await runStoreKills('snapshot', dir(), { kills: options.kills, windowMs: options.killWindowMs });
    log(`kills during a journal compaction: ${options.kills}`);
    const compactions = await runStoreKills('compaction', dir(), { kills: options.kills, windowMs: options.killWindowMs });
    log(`disk full: ${options.diskFullCycles} cycles on a tmpfs`);
    const diskFull = await runDiskFull({ cycles: options.diskFullCycles, writesWhileFull: options.writesWhileFull }, log);
    if (diskFull.skipped) log(`disk full: skipped, ${diskFull.skipped}`);
    return { options, load, steady, slow, kills: [uploads, models, snapshots, compactions], diskFull };
  } finally {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const mode = process.argv.includes('--short') ? 'short' : 'full';
  const started = Date.now();
  // SOAK_STEADY_SECONDS: a longer steady phase, to tell a slow leak from noise.
  const steadySeconds = Number(process.env.SOAK_STEADY_SECONDS) || MODES[mode].steadySeconds;
  const log = (line: string) => console.error(`[soak ${Math.round((Date.now() - started) / 1000)} s] ${line}`);
  if (process.argv.includes('--steady')) {
    // The steady phase alone (a long one tells a slow leak from the store's own growth).
    const dir = tempDir();
    try {
      const options = MODES[mode];
      log(`steady state: ${options.steadyConnections} connections for ${steadySeconds} s`);
      const service = await startService(dir, steadyEnv(dir));
      const steady = await runSteady(service, options.steadyConnections, steadySeconds);
      await service.kill();
      console.log(steadyReport(steady));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  } else {
    console.log(report(await soak({ ...MODES[mode], steadySeconds }, log)));
  }
  console.error(`[soak] done in ${Math.round((Date.now() - started) / 1000)} s`);
}
