// Task engine figures: engine overhead on a no-op job, GET
// /task/{id} polls per second, and how a cheap GET fares while both cores run worker jobs.
import os from 'node:os';
import { startApp, type TestApp } from '../test/helpers/app.ts';
import { taskQuads, type TaskRecord } from '../src/tasks/tasks.ts';
import type { BenchModule, BenchRow } from './types.ts';

const SPIN = new URL('./taskJobs.ts', import.meta.url);
const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

/** Requests per second of `url` over `ms` with `concurrency` clients, and their latencies. */
async function load(url: string, ms: number, concurrency: number, accept = 'text/uri-list'): Promise<{ rps: number; lat: number[] }> {
  const lat: number[] = [];
  const until = Date.now() + ms;
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (Date.now() < until) {
      const t = performance.now();
      const res = await fetch(url, { headers: { Accept: accept } });
      await res.arrayBuffer();
      lat.push(performance.now() - t);
    }
  }));
  return { rps: lat.length / (ms / 1000), lat };
}

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

async function noopThroughput(app: TestApp, n: number): Promise<number> {
  const meta = { title: 'bench', creator: `${app.url}/algorithm/bench` };
  const start = performance.now();
  const tasks = await Promise.all(Array.from({ length: n }, () => app.deps.tasks.submit('bench-noop', {}, meta)));
  await Promise.all(tasks.map((t) => app.deps.tasks.settled(t.uri, 60_000)));
  return n / ((performance.now() - start) / 1000);
}

/** The store alone: concurrent replaceGraph of a task-sized graph (a no-op task costs three). */
async function storeWrites(app: TestApp, n: number): Promise<number> {
  const t: TaskRecord = {
    uri: `${app.url}/task/bench`, creator: app.url, status: 'Running', date: new Date(), title: 'bench', percentageCompleted: 0,
    resultUris: [], kind: 'bench-noop', params: '{}', idempotent: false,
  };
  const start = performance.now();
  await Promise.all(Array.from({ length: n }, (_, i) => app.deps.store.replaceGraph(`${t.uri}${i}`, taskQuads({ ...t, uri: `${t.uri}${i}` }))));
  return n / ((performance.now() - start) / 1000);
}

async function run(): Promise<BenchRow[]> {
  const cores = os.availableParallelism();
  const app = await startApp({ queueLength: 100_000, taskRetentionHours: 0 });
  try {
    app.deps.tasks.define({ kind: 'bench-noop', idempotent: true, run: async () => 'http://example.org/result' });
    app.deps.tasks.define<{ ms: number }>({
      kind: 'bench-spin', idempotent: true,
      run: async (p, ctx) => { await ctx.runInWorker(SPIN, 'spin', p); return 'http://example.org/spun'; },
    });
    await noopThroughput(app, 100); // warm-up
    const tasksPerS = await noopThroughput(app, 2000);
    const writesPerS = await storeWrites(app, 2000);

    const polled = await app.deps.tasks.submit('bench-noop', {}, { title: 'poll', creator: app.url });
    await app.deps.tasks.settled(polled.uri, 10_000);
    await load(polled.uri, 500, 8); // warm-up
    const polls = await load(polled.uri, 3000, 8);
    const root = await load(`${app.url}/`, 3000, 8);

    const idle = await load(polled.uri, 3000, 1);
    const meta = { title: 'spin', creator: app.url };
    const spinning = await Promise.all(Array.from({ length: cores }, () => app.deps.tasks.submit('bench-spin', { ms: 60_000 }, meta)));
    await new Promise((r) => setTimeout(r, 1500)); // threads started and busy
    const busy = await load(polled.uri, 3000, 1);
    for (const t of spinning) await app.deps.tasks.cancel(t.uri);

    return [
      { bench: 'no-op tasks submitted and completed', figure: `${fmt(tasksPerS)} tasks/s`, baseline: `${fmt(writesPerS)} task-graph writes/s`, ratio: `${fmt(tasksPerS / writesPerS, 2)} (3 writes per task)` },
      { bench: 'GET /task/{id} polls (8 clients)', figure: `${fmt(polls.rps)} req/s`, baseline: `${fmt(root.rps)} req/s GET /`, ratio: fmt(polls.rps / root.rps, 2) },
      { bench: `GET /task/{id} p50 while ${cores} worker jobs spin`, figure: `${fmt(pct(busy.lat, 50), 2)} ms`, baseline: `${fmt(pct(idle.lat, 50), 2)} ms idle`, ratio: fmt(pct(busy.lat, 50) / pct(idle.lat, 50), 2) },
      { bench: `GET /task/{id} p99 while ${cores} worker jobs spin`, figure: `${fmt(pct(busy.lat, 99), 2)} ms`, baseline: `${fmt(pct(idle.lat, 99), 2)} ms idle`, ratio: fmt(pct(busy.lat, 99) / pct(idle.lat, 99), 2) },
    ];
  } finally {
    await app.close();
  }
}

const bench: BenchModule = { title: 'Tasks', run };
export default bench;
