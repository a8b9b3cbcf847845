// Scale: the same service on its two kinds of engine, side by side in one run (docs/engines.md).
// Embedded: `npm start` alone. Remote: the service with SPARQL_ENDPOINT on a Virtuoso started
// here, and for the jobs REDIS_URL with an API process that runs no jobs (WORKERS=0) and one
// or two `npm run worker` processes. Every figure is taken from outside the service's
// process: wall time seen by the client, memory from /proc, load from wrk.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { lastLines, startService } from './lib/processes.ts';
import { wrk } from './lib/wrk.ts';
import { startVirtuoso, type Virtuoso } from '../scripts/engines/virtuoso.ts';
import { startRedis } from '../scripts/engines/redis.ts';
import { followTask } from '../test/helpers/datasets.ts';
import { sharedData } from '../test/helpers/data.ts';
import type { BenchModule, BenchRow } from './types.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ROWS = Number(process.env.BENCH_SCALE_ROWS) || 100_000;
const FEATURES = 20;
/** Descriptor jobs submitted at once, each over its own slice of kazius. */
const JOBS = 8;
const SLICE = 250;
/** V8 heap limit of the remote mode's API process (MiB): docs/engines.md, Memory. */
const API_HEAP_MIB = 192;

const fmt = (n: number, digits = 1) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const mib = (kib: number) => `${fmt(kib / 1024, 0)} MiB`;

/** VmRSS and VmHWM (peak RSS since the process started) of a process, in KiB. */
function memory(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return { rss: field('VmRSS'), peak: field('VmHWM') };
}

export function generatedCsv(): string {
  const header = ['compound', ...Array.from({ length: FEATURES }, (_, j) => `descriptor ${j + 1}`)].join(',');
  const lines = [header];
  for (let i = 0; i < ROWS; i++) {
    const values = Array.from({ length: FEATURES }, (_, j) => (((i * 7919 + j * 104729) % 100000) / 997).toFixed(4));
    lines.push([`http://compounds.example.org/compound/${i + 1}`, ...values].join(','));
  }
  return lines.join('\n') + '\n';
}

/** POSTs and follows the task to its end; the result URI. */
export async function submit(url: string, body: string | URLSearchParams, type?: string): Promise<{ result: string; task?: string }> {
  const headers: Record<string, string> = { Accept: 'text/uri-list' };
  if (type) headers['Content-Type'] = type;
  const res = await fetch(url, { method: 'POST', headers, body });
  const text = (await res.text()).trim();
  if (res.status !== 202) {
    if (res.status !== 200 && res.status !== 201) throw new Error(`${url}: ${res.status} ${text}`);
    return { result: text };
  }
  const done = await followTask(text, 3_600_000);
  if (done.status !== 200) throw new Error(`${url}: task ${text} ended ${done.status} ${done.body}`);
  return { result: done.body, task: text };
}

/** Seconds to read `url` as `accept`, the body consumed as it streams. */
async function download(url: string, accept: string): Promise<number> {
  const t = performance.now();
  const res = await fetch(url, { headers: { Accept: accept } });
  if (res.status !== 200) throw new Error(`${url} as ${accept}: ${res.status}`);
  for await (const _ of res.body as unknown as AsyncIterable<Uint8Array>) { /* consumed */ }
  return (performance.now() - t) / 1000;
}

interface ModeFigures {
  uploadS: number;
  /** Peak RSS of the API process, and of the worker process when there is one (KiB). */
  peakKiB: number;
  workerPeakKiB?: number;
  csvS: number;
  xmlS: number;
  endKiB: number;
  get: Record<'compound' | 'task' | 'algorithm', number>;
}

/**
 * One mode's figures. Embedded: one process. Remote: the API process runs no jobs
 * (WORKERS=0) and one worker process takes them from Redis, as a deployment at scale runs.
 */
export async function measureMode(csv: string, virtuoso?: Virtuoso): Promise<ModeFigures> {
  const redisDir = mkdtempSync(path.join(os.tmpdir(), 'opentox-bench-redis-'));
  const redis = virtuoso ? await startRedis(redisDir) : undefined;
  const remote: Record<string, string> = virtuoso && redis ? { SPARQL_ENDPOINT: virtuoso.endpoint, SPARQL_GRAPH_STORE: virtuoso.graphStore, REDIS_URL: redis.url } : {};
  // The remote API process holds no data, so its JS heap is capped as docs/engines.md advises.
  const heap: Record<string, string> = virtuoso ? { NODE_OPTIONS: `--max-old-space-size=${API_HEAP_MIB}` } : {};
  const service = await startService({ BODY_LIMIT: String(1 << 30), WORKERS: virtuoso ? '0' : '2', ...remote, ...heap });
  const worker = virtuoso ? launchWorker({ ...remote, WORKERS: '2', BASE_URL: service.url }) : undefined;
  try {
    const compound = (await submit(`${service.url}/compound`, 'c1ccccc1O', 'chemical/x-daylight-smiles')).result;
    const t = performance.now();
    const { result: dataset, task } = await submit(`${service.url}/dataset`, csv, 'text/csv');
    const uploadS = (performance.now() - t) / 1000;
    const xmlS = await download(dataset, 'application/rdf+xml');
    const csvS = await download(dataset, 'text/csv');
    const { rss: endKiB, peak: peakKiB } = memory(service.process.pid!);
    const workerPeakKiB = worker ? memory(worker.child.pid!).peak : undefined;
    const get = { compound: 0, task: 0, algorithm: 0 };
    const targets: Array<[keyof typeof get, string]> = [['compound', compound], ['task', task ?? dataset], ['algorithm', `${service.url}/algorithm/physchem`]];
    for (const [name, url] of targets) {
      get[name] = (await wrk(url, { connections: 16, seconds: 5, headers: { Accept: 'application/rdf+xml' } })).requestsPerSecond;
    }
    return { uploadS, peakKiB, workerPeakKiB, csvS, xmlS, endKiB, get };
  } catch (e) {
    const exited = service.process.exitCode ?? service.process.signalCode;
    throw new Error(`${(e as Error).message}${exited === null ? '' : ` (the service exited: ${exited})`}\nwhat it logged last:\n${service.logged.slice(-50).join('\n')}`, { cause: e });
  } finally {
    if (worker) await stopWorker(worker);
    await service.stop();
    await redis?.stop();
    rmSync(redisDir, { recursive: true, force: true });
  }
}

/** A worker process, and the last lines it logged (warn and above), to explain a failed job. */
interface Worker { child: ChildProcess; dir: string; logged: string[] }

function launchWorker(env: Record<string, string>): Worker {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'opentox-bench-worker-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/worker.ts'], { cwd: ROOT, env: { ...process.env, LOG_LEVEL: 'warn', ...env, DATA_DIR: dir }, stdio: ['ignore', 'pipe', 'pipe'] });
  return { child, dir, logged: lastLines([child.stdout, child.stderr], 20) };
}

async function stopWorker({ child, dir }: Worker): Promise<void> {
  if (child.exitCode === null) {
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
  }
  rmSync(dir, { recursive: true, force: true });
}

/** Seconds for JOBS descriptor jobs (physchem over SLICE kazius rows each) with `workers` worker processes. */
export async function jobsWith(workers: number, virtuoso: Virtuoso): Promise<number> {
  const redisDir = mkdtempSync(path.join(os.tmpdir(), 'opentox-bench-redis-'));
  const redis = await startRedis(redisDir);
  // DEBUG_ERRORS: a failed job's report carries the stack, wherever it was thrown.
  const env = { SPARQL_ENDPOINT: virtuoso.endpoint, SPARQL_GRAPH_STORE: virtuoso.graphStore, REDIS_URL: redis.url, WORKERS: '1', DEBUG_ERRORS: 'true' };
  const api = await startService({ ...env, WORKERS: '0', JOB_QUOTA: '0' });
  const started = Array.from({ length: workers }, () => launchWorker({ ...env, BASE_URL: api.url }));
  try {
    const kazius = readFileSync(sharedData('opentox-test', 'kazius.csv'), 'utf8').trim().split(/\r?\n/);
    const datasets: string[] = [];
    for (let i = 0; i < JOBS; i++) {
      const rows = kazius.slice(1 + i * SLICE, 1 + (i + 1) * SLICE);
      datasets.push((await submit(`${api.url}/dataset`, [kazius[0], ...rows].join('\n') + '\n', 'text/csv')).result);
    }
    const t = performance.now();
    await Promise.all(datasets.map((d) => submit(`${api.url}/algorithm/physchem`, new URLSearchParams({ dataset_uri: d })))).catch((e: Error) => {
      throw new Error(`${e.message}\nwhat the API process logged:\n${api.logged.join('\n')}\nwhat the workers logged:\n${started.flatMap((w) => w.logged).join('\n')}`);
    });
    return (performance.now() - t) / 1000;
  } finally {
    for (const w of started) await stopWorker(w);
    await api.stop();
    await redis.stop();
    rmSync(redisDir, { recursive: true, force: true });
  }
}

async function virtuosoTriples(v: Virtuoso): Promise<number> {
  const res = await fetch(v.endpoint, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/sparql-results+json' }, body: new URLSearchParams({ query: 'SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } }' }) });
  const json = (await res.json()) as { results: { bindings: Array<{ n: { value: string } }> } };
  return Number(json.results.bindings[0]?.n.value);
}

const bench: BenchModule = {
  title: `Scale: embedded and remote (Virtuoso, Redis workers), ${ROWS.toLocaleString('en-US')} compounds × ${FEATURES} features`,
  run: async () => {
    const csv = generatedCsv();
    const vdir = mkdtempSync(path.join(os.tmpdir(), 'opentox-bench-virtuoso-'));
    // 170,000 pages of 8 KiB: Virtuoso's own advice for a few million triples.
    const virtuoso: Virtuoso = await startVirtuoso({ dir: vdir, buffers: 170_000, maxRows: 1_000_000 });
    try {
      const emptyVirtuoso = memory(virtuoso.process.pid!).rss;
      const embedded = await measureMode(csv);
      const remote = await measureMode(csv, virtuoso);
      const triples = await virtuosoTriples(virtuoso);
      const loadedVirtuoso = memory(virtuoso.process.pid!).rss;
      const dbBytes = statSync(path.join(vdir, 'virtuoso.db')).size;
      // A failed job run is reported in its row, so the figures taken before it are not lost.
      const timed = (workers: number) => jobsWith(workers, virtuoso).catch((e: Error) => { console.error(e.message); return e; });
      const one = await timed(1);
      const two = await timed(2);
      const rows: BenchRow[] = [
        { bench: `upload (CSV, ${mib(csv.length / 1024)}) to a finished dataset`, figure: `remote ${fmt(remote.uploadS)} s`, baseline: `embedded ${fmt(embedded.uploadS)} s`, ratio: `${fmt(remote.uploadS / embedded.uploadS, 2)}× the time` },
        { bench: 'peak RSS of the API process (start, upload, both streams)', figure: `remote, heap capped at ${API_HEAP_MIB} MiB: ${mib(remote.peakKiB)} (its worker process: ${mib(remote.workerPeakKiB ?? NaN)})`, baseline: `embedded ${mib(embedded.peakKiB)}`, ratio: `${fmt(remote.peakKiB / embedded.peakKiB, 2)}×; at the end ${mib(remote.endKiB)} vs ${mib(embedded.endKiB)}` },
        { bench: 'stream back as text/csv', figure: `remote ${fmt(ROWS / remote.csvS, 0)} rows/s`, baseline: `embedded ${fmt(ROWS / embedded.csvS, 0)} rows/s`, ratio: `${fmt(embedded.csvS / remote.csvS, 2)}` },
        { bench: 'stream back as application/rdf+xml', figure: `remote ${fmt(ROWS / remote.xmlS, 0)} rows/s`, baseline: `embedded ${fmt(ROWS / embedded.xmlS, 0)} rows/s`, ratio: `${fmt(embedded.xmlS / remote.xmlS, 2)}` },
      ];
      for (const name of ['compound', 'task', 'algorithm'] as const) {
        rows.push({ bench: `GET one ${name} as RDF/XML, wrk -c16`, figure: `remote ${fmt(remote.get[name], 0)} req/s`, baseline: `embedded ${fmt(embedded.get[name], 0)} req/s`, ratio: `${fmt(remote.get[name] / embedded.get[name], 2)}` });
      }
      rows.push(
        typeof one === 'number' && typeof two === 'number'
          ? { bench: `${JOBS} descriptor jobs (physchem, ${SLICE} kazius compounds each), remote with Redis`, figure: `2 workers: ${fmt(JOBS / two, 2)} jobs/s (${fmt(two)} s)`, baseline: `1 worker: ${fmt(JOBS / one, 2)} jobs/s (${fmt(one)} s)`, ratio: `${fmt(one / two, 2)}× on ${os.cpus().length} cores shared with Virtuoso, Redis and the API` }
          : { bench: `${JOBS} descriptor jobs (physchem), remote with Redis`, figure: `failed: ${[one, two].filter((x): x is Error => x instanceof Error).map((e) => e.message.split('\n')[0]).join('; ')}` },
        { bench: 'Virtuoso after both runs', figure: `${fmt(triples, 0)} triples`, baseline: `RSS ${mib(emptyVirtuoso)} empty, ${mib(loadedVirtuoso)} loaded; virtuoso.db ${mib(dbBytes / 1024)}`, ratio: `${fmt((dbBytes) / triples, 0)} B/triple on disk` },
        { bench: 'machine', figure: `load average ${os.loadavg().map((l) => fmt(l, 1)).join(' ')}`, baseline: `${os.cpus().length} cores, Node ${process.version}` },
      );
      return rows;
    } finally {
      await virtuoso.stop();
      rmSync(vdir, { recursive: true, force: true });
    }
  },
};

export default bench;
