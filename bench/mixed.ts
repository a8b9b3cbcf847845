// Many clients at once, from another process: the soak's load (scripts/soak/load.ts: reads
// of compounds, datasets, tasks and algorithms, posted compounds, small uploads, descriptor
// jobs, each client sending its next request as soon as it has the answer) from 100
// connections for 45 s. The figure is the p99 of every request's latency, with the kinds
// that make it; the baseline is the same mix from one connection, where nothing waits for
// another client.
import type { BenchModule, BenchRow } from './types.ts';
import { startService, type Running } from './lib/processes.ts';
import { loadAverage, untilIdle } from './lib/idle.ts';
import { runLoad, type LoadResult } from '../scripts/soak/load.ts';
import { quantile } from '../scripts/soak/stats.ts';
import type { Service } from '../scripts/soak/service.ts';

const CLIENTS = Number(process.env.BENCH_MIXED_CLIENTS ?? 100);
const SECONDS = Number(process.env.BENCH_MIXED_SECONDS ?? 45);
/** Seconds of the one-connection baseline. */
const BASELINE_SECONDS = 15;

const ms = (n: number) => (n >= 1000 ? `${(n / 1000).toFixed(2)} s` : `${n.toFixed(0)} ms`);

/** The soak's view of a service started by the bench. */
const asService = (s: Running & { dataDir: string }): Service => ({
  url: s.url, pid: s.process.pid!, dataDir: s.dataDir, exited: new Promise(() => undefined), stderr: () => s.logged.join('\n'), kill: async () => { await s.stop(); return 'stopped'; },
});

function summary(r: LoadResult): { n: number; failed: number; p50: number; p99: number; kinds: string } {
  const all: number[] = [];
  const kinds: string[] = [];
  let failed = 0;
  for (const k of r.recorder.kinds()) {
    const s = r.recorder.summary(k);
    failed += s.bad + s.failed;
    kinds.push(`${k} p50 ${ms(s.p50)} p99 ${ms(s.p99)}`);
    all.push(...r.recorder.timesOf(k));
  }
  all.sort((a, b) => a - b);
  return { n: all.length, failed, p50: quantile(all, 0.5), p99: quantile(all, 0.99), kinds: kinds.join('; ') };
}

async function load(clients: number, seconds: number): Promise<ReturnType<typeof summary>> {
  const service = await startService();
  try {
    return summary(await runLoad(asService(service), clients, seconds));
  } finally {
    await service.stop();
  }
}

const mod: BenchModule = {
  title: 'Many clients at once, from another process',
  run: async (): Promise<BenchRow[]> => {
    await untilIdle();
    const before = loadAverage();
    const one = await load(1, BASELINE_SECONDS);
    await untilIdle();
    const many = await load(CLIENTS, SECONDS);
    return [{
      bench: `p99 of every request, ${CLIENTS} clients with no pause for ${SECONDS} s on a fresh store (the soak's mix; load ${before} before): ${many.kinds}`,
      figure: `${ms(many.p99)} (p50 ${ms(many.p50)}, ${many.n.toLocaleString('en-US')} requests, ${many.failed} failed)`,
      baseline: `${ms(one.p99)} (p50 ${ms(one.p50)}, ${one.n.toLocaleString('en-US')} requests) from 1 client`,
      ratio: `goal <= 1 s, 0 failed`,
    }];
  },
};

export default mod;
