// Phase 1b, steady state: leaks told apart from growth. The load phase's store grows with
// every compound, upload and job it makes, and the RSS of an in-memory store grows with it,
// so its RSS cannot show a leak. Here the mix of reads and writes leaves nothing behind:
// compounds posted are ones already stored (answered by the identity index), every dataset
// uploaded or computed is deleted once read (an upload's features too; descriptor jobs reuse
// the features of their algorithm), and finished tasks are purged after seconds
// (TASK_RETENTION_HOURS). The store's triple count is read every few seconds to show that it
// stays level; RSS that still climbs after warm-up is then memory kept for nothing.
import { existsSync, readFileSync } from 'node:fs';
import type { Agent } from 'node:http';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { kazius, kaziusCsv } from './data.ts';
import { pool, request, uris, type Answer } from './http.ts';
import { Recorder } from './stats.ts';
import { outcome } from './load.ts';
import { sampleRss, sleep, type Service } from './service.ts';

/** One second of one thread of the service as Node counts it (scripts/soak/memoryProbe.mjs), in bytes. */
export interface MemorySample {
  /** Seconds since the steady load began (negative while the service started). */
  t: number;
  thread: number;
  kind: 'main' | 'pool' | 'replica' | 'compactor' | 'forest' | 'parser' | 'matcher';
  /** The process's RSS (the same for every thread). */
  rss: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  /** Of external, ArrayBuffers and Buffers (cached representations, sockets' data). */
  arrayBuffers?: number;
  /** The thread's WASM memories by the package that made them (oxigraph, rdkit, indigo, resvg, tsx, llhttp): their size, not what of it is touched. */
  wasm?: Record<string, number>;
}

export interface SteadyResult {
  seconds: number;
  connections: number;
  recorder: Recorder;
  /** RSS in MiB, one sample a second. */
  rss: number[];
  /** Triples in the store: [seconds since start, count]. */
  triples: Array<[number, number]>;
  memory: MemorySample[];
}

/** Environment for the service of the steady phase: tasks purged soon, memory probed. */
export function steadyEnv(dataDir: string): Record<string, string> {
  const probe = path.join(path.dirname(fileURLToPath(import.meta.url)), 'memoryProbe.mjs');
  return {
    TASK_RETENTION_HOURS: STEADY_TASK_RETENTION_HOURS,
    SOAK_MEMORY_FILE: path.join(dataDir, 'memory.jsonl'),
    NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${pathToFileURL(probe).href}`.trim(),
  };
}

/** Finished tasks are purged this soon (hours), so tasks do not pile up either. */
export const STEADY_TASK_RETENTION_HOURS = '0.001';

const FORMATS = ['chemical/x-daylight-smiles', 'chemical/x-inchikey', 'chemical/x-mdl-sdfile', 'text/turtle', 'application/rdf+xml', 'chemical/x-inchi'];
const SEED = 40;

const ok = (res: Answer) => res.status >= 200 && res.status < 300;

async function tripleCount(agent: Agent, url: string): Promise<number | undefined> {
  const query = 'SELECT (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } }';
  const res = await request(agent, `${url}/sparql?query=${encodeURIComponent(query)}`, { headers: { Accept: 'application/sparql-results+json' } });
  if (!ok(res)) return undefined;
  const n = (JSON.parse(res.body) as { results: { bindings: Array<{ n?: { value: string } }> } }).results.bindings[0]?.n?.value;
  return n === undefined ? undefined : Number(n);
}

/** Follows a task (SPEC §4.3) to its result URI; undefined when it failed. */
async function result(agent: Agent, answer: Answer): Promise<string | undefined> {
  let res = answer;
  for (let i = 0; i < 600 && res.status === 202; i++) {
    await sleep(200);
    res = await request(agent, uris(res.body)[0]!, { headers: { Accept: 'text/uri-list' } });
  }
  return res.status === 200 ? uris(res.body)[0] : undefined;
}

export async function runSteady(service: Service, connections: number, seconds: number): Promise<SteadyResult> {
  const agent = pool(connections + 1);
  const rows = kazius().slice(0, SEED);
  const compounds: string[] = [];
  for (const row of rows) {
    const res = await request(agent, `${service.url}/compound`, { method: 'POST', headers: { 'Content-Type': 'chemical/x-daylight-smiles', Accept: 'text/uri-list' }, body: row.smiles });
    if (res.status === 200) compounds.push(uris(res.body)[0]!);
  }
  const seeded = await request(agent, `${service.url}/dataset`, { method: 'POST', headers: { 'Content-Type': 'text/csv', Accept: 'text/uri-list' }, body: kaziusCsv(20) });
  const dataset = await result(agent, seeded);
  if (compounds.length === 0 || !dataset) throw new Error('steady phase: could not seed compounds and a dataset');
  const pick = <T>(xs: T[]): T => xs[Math.floor(Math.random() * xs.length)]!;
  const recorder = new Recorder();
  // Counted as the load phase counts them (503 or 429 with Retry-After is the service declining).
  const record = (kind: string, t0: number, res: Answer) => recorder.record(kind, performance.now() - t0, outcome(res), `${res.status} ${res.body.slice(0, 200)}`);
  const timed = async (kind: string, send: () => Promise<Answer>) => {
    const t0 = performance.now();
    record(kind, t0, await send());
  };
  // Each op leaves the store as it found it (a dataset made is deleted once read).
  const ops: Array<{ weight: number; run: () => Promise<void> }> = [
    { weight: 40, run: () => timed('GET compound', () => request(agent, pick(compounds), { headers: { Accept: pick(FORMATS) } })) },
    { weight: 10, run: () => timed('GET dataset', () => request(agent, dataset, { headers: { Accept: pick(['text/csv', 'text/turtle', 'application/rdf+xml']) } })) },
    { weight: 10, run: () => timed('GET algorithm', () => request(agent, pick([`${service.url}/algorithm`, `${service.url}/algorithm/knn`]), { headers: { Accept: pick(['text/uri-list', 'text/turtle']) } })) },
    { weight: 20, run: () => timed('POST known compound', () => request(agent, `${service.url}/compound`, { method: 'POST', headers: { 'Content-Type': 'chemical/x-daylight-smiles', Accept: 'text/uri-list' }, body: pick(rows).smiles })) },
    { weight: 6, run: async () => {
      const t0 = performance.now();
      const made = await request(agent, `${service.url}/dataset`, { method: 'POST', headers: { 'Content-Type': 'text/csv', Accept: 'text/uri-list' }, body: kaziusCsv(5, Math.floor(Math.random() * (SEED - 5))) });
      const uri = ok(made) ? await result(agent, made) : undefined;
      if (!uri) return record('POST dataset, read, DELETE', t0, made);
      // Its columns became features of their own (docs/endpoints.md), which outlive the dataset: they go too.
      const features = uris((await request(agent, `${uri}/features`, { headers: { Accept: 'text/uri-list' } })).body);
      let last = await request(agent, uri, { method: 'DELETE' });
      for (const f of features) if (ok(last)) last = await request(agent, f, { method: 'DELETE' });
      record('POST dataset, read, DELETE', t0, last);
    } },
    { weight: 2, run: async () => {
      const t0 = performance.now();
      const job = await request(agent, `${service.url}/algorithm/physchem`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'text/uri-list' }, body: `dataset_uri=${encodeURIComponent(dataset)}` });
      const uri = ok(job) ? await result(agent, job) : undefined;
      record('descriptor job, DELETE its dataset', t0, uri ? await request(agent, uri, { method: 'DELETE' }) : job);
    } },
  ];
  const total = ops.reduce((s, o) => s + o.weight, 0);
  const choose = () => {
    let r = Math.random() * total;
    for (const o of ops) if ((r -= o.weight) < 0) return o;
    return ops[0]!;
  };
  const rss = sampleRss(service.pid);
  const started = Date.now();
  const until = started + seconds * 1000;
  const triples: Array<[number, number]> = [];
  const counting = (async () => {
    while (Date.now() < until) {
      const n = await tripleCount(agent, service.url).catch(() => undefined);
      if (n !== undefined) triples.push([(Date.now() - started) / 1000, n]);
      await sleep(5000);
    }
  })();
  await Promise.all(Array.from({ length: connections }, async () => {
    while (Date.now() < until) {
      try {
        await choose().run();
      } catch (e) {
        recorder.record('no answer', 0, 'failed', (e as Error).message);
      }
    }
  }));
  await counting;
  agent.destroy();
  const file = path.join(service.dataDir, 'memory.jsonl');
  const raw = existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Omit<MemorySample, 't'> & { at: number }) : [];
  const memory: MemorySample[] = raw.map(({ at, ...m }) => ({ ...m, t: at - started / 1000 }));
  return { seconds, connections, recorder, rss: rss.stop(), triples, memory };
}

/** Least-squares slope of `ys` sampled once a second, in units per minute. */
export function slopePerMinute(ys: readonly number[]): number {
  const n = ys.length;
  if (n < 2) return 0;
  const mx = (n - 1) / 2;
  const my = ys.reduce((s, y) => s + y, 0) / n;
  let num = 0;
  let den = 0;
  ys.forEach((y, x) => {
    num += (x - mx) * (y - my);
    den += (x - mx) ** 2;
  });
  return (num / den) * 60;
}
