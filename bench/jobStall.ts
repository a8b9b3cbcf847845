// What a client feels while jobs run and end, from outside: GET /task/{id} paced at 200 a
// second on one connection (bench/lib/paced.ts), its latency counted from when each request
// was due, first with the service idle, then from the moment two physchem jobs over kazius
// are submitted until a second after both have ended (their results stored). The p99 of the
// second ÷ the p99 of the first is the first figure; the worst lateness while the jobs ran
// and ended, which is the service's longest event-loop stall as a client sees it, the second.
import { readFileSync } from 'node:fs';
import type { BenchModule, BenchRow } from './types.ts';
import { startService, type Running } from './lib/processes.ts';
import { paced, type PacedResult } from './lib/paced.ts';
import { loadAverage, untilIdle } from './lib/idle.ts';
import { medianBy } from './lib/median.ts';
import { sharedData } from '../test/helpers/data.ts';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** Requests a second of the paced client. */
const RATE = 200;
/** Seconds of the idle run. */
const IDLE_SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
/** Kazius rows uploaded (all by default); fewer for a quick run. */
const ROWS = Number(process.env.BENCH_STALL_ROWS) || Infinity;
/** How long the busy run goes on after both jobs have ended: what follows their end counts too. */
const AFTER_MS = 1000;

const fmt = (n: number, digits = 1) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** POSTs to `path`; the task (202, the service runs with no sync window) or the result (200, a small upload stored at once). */
async function post(service: Running, path: string, body: string | URLSearchParams, type?: string): Promise<{ task?: string; result?: string }> {
  const res = await fetch(`${service.url}${path}`, { method: 'POST', headers: { accept: 'text/uri-list', ...(type ? { 'content-type': type } : {}) }, body });
  const text = (await res.text()).trim();
  if (res.status === 200) return { result: text };
  if (res.status !== 202) throw new Error(`POST ${path}: ${res.status} ${text}`);
  return { task: text };
}

/** The dataset of `csv`, uploaded. */
async function upload(service: Running, csv: string): Promise<string> {
  const { task, result } = await post(service, '/dataset', csv, 'text/csv');
  return result ?? ended(task!);
}

const physchem = async (service: Running, dataset: string): Promise<string> => (await post(service, '/algorithm/physchem', new URLSearchParams({ dataset_uri: dataset }))).task!;

/** The result of `task` once it is final (polled on a connection of its own, twice a second); rejects unless it completed. */
async function ended(task: string): Promise<string> {
  for (;;) {
    await new Promise((r) => setTimeout(r, 500));
    const res = await fetch(task, { headers: { accept: 'text/uri-list' } });
    const text = await res.text();
    if (res.status === 200) return text.trim();
    if (res.status !== 202) throw new Error(`${task}: ${res.status} ${text.trim()}`);
  }
}

const mod: BenchModule = {
  title: 'Polls while jobs run and end, paced from another process',
  run: async () => {
    const service = await startService({ SYNC_WINDOW_MS: '0' });
    try {
      const lines = readFileSync(sharedData('opentox-test/kazius.csv'), 'utf8').split(/\r?\n/).filter(Boolean);
      const csv = lines.slice(0, Math.min(lines.length, ROWS + 1)).join('\n') + '\n';
      const dataset = await upload(service, csv);
      // Polled: a finished task, which stays as it is (200 with its result): physchem on a few rows.
      const polled = await physchem(service, await upload(service, lines.slice(0, 11).join('\n') + '\n'));
      await ended(polled);
      const rounds: Array<{ idle: PacedResult; busy: PacedResult; ms: number; load: string }> = [];
      for (let i = 0; i < ROUNDS; i++) {
        await untilIdle();
        const idle = await paced(polled, { rate: RATE, seconds: IDLE_SECONDS });
        const t = performance.now();
        const jobs = [await physchem(service, dataset), await physchem(service, dataset)];
        const done = Promise.all(jobs.map(ended));
        const busy = await paced(polled, { rate: RATE, until: done.then(() => new Promise((r) => setTimeout(r, AFTER_MS))) });
        await done;
        if (idle.errors + busy.errors > 0) throw new Error(`polls failed: ${idle.errors} idle, ${busy.errors} busy`);
        rounds.push({ idle, busy, ms: performance.now() - t - AFTER_MS, load: loadAverage() });
      }
      const ratio = (r: (typeof rounds)[number]) => r.busy.p99 / r.idle.p99;
      const { idle, busy, ms, load } = medianBy(rounds, ratio);
      const worst = medianBy(rounds, (r) => r.busy.max);
      const rows = ROWS === Infinity ? lines.length - 1 : Math.min(ROWS, lines.length - 1);
      return [{
        bench: `GET /task/{id} p99 at ${RATE} req/s on one connection, latency from when each was due, while 2 physchem jobs run on kazius (${rows} rows) and end (${fmt(ms / 1000)} s), median of ${ROUNDS} rounds (load ${load})`,
        figure: `${fmt(busy.p99, 2)} ms (p50 ${fmt(busy.p50, 2)} ms, ${busy.requests} requests)`,
        baseline: `${fmt(idle.p99, 2)} ms idle (p50 ${fmt(idle.p50, 2)} ms)`,
        ratio: `${ratio({ idle, busy, ms, load }).toFixed(1)} (goal <= 4; rounds ${rounds.map((r) => ratio(r).toFixed(1)).join(', ')})`,
      }, {
        bench: `Longest event-loop stall while those jobs run and end: the worst lateness of the paced polls, median of ${ROUNDS} rounds`,
        figure: `${fmt(worst.busy.max)} ms (rounds ${rounds.map((r) => fmt(r.busy.max, 0)).join(', ')} ms)`,
        baseline: `${fmt(worst.idle.max)} ms idle`,
        ratio: 'goal <= 50 ms',
      }] satisfies BenchRow[];
    } finally {
      await service.stop();
    }
  },
};

export default mod;
