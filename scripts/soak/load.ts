// Phase 1, load: N connections for a while, each looping over a weighted mix of reads
// (compounds in several formats, datasets, tasks, algorithms) and writes (compounds,
// small uploads, descriptor jobs), while RSS and a cheap GET's latency are sampled.
import type { Agent } from 'node:http';
import { kazius, kaziusCsv } from './data.ts';
import { pool, request, uris, type Answer } from './http.ts';
import { probe, Recorder } from './stats.ts';
import { sampleRss, type Service } from './service.ts';

export interface LoadResult {
  connections: number;
  seconds: number;
  recorder: Recorder;
  rss: number[];
  probeMs: number[];
}

interface Op {
  kind: string;
  weight: number;
  run: (agent: Agent, url: string, pick: <T>(xs: T[]) => T) => Promise<Answer>;
}

const FORMATS = ['chemical/x-daylight-smiles', 'chemical/x-inchikey', 'chemical/x-mdl-sdfile', 'text/turtle', 'application/rdf+xml', 'chemical/x-inchi'];

/** Seeds a few compounds and datasets for the reads to find. */
async function seed(agent: Agent, url: string): Promise<{ compounds: string[]; datasets: string[] }> {
  const compounds: string[] = [];
  for (const row of kazius().slice(0, 20)) {
    const res = await request(agent, `${url}/compound`, { method: 'POST', headers: { 'Content-Type': 'chemical/x-daylight-smiles', Accept: 'text/uri-list' }, body: row.smiles });
    if (res.status === 200) compounds.push(uris(res.body)[0]!);
  }
  const datasets: string[] = [];
  for (let i = 0; i < 3; i++) {
    const res = await request(agent, `${url}/dataset`, { method: 'POST', headers: { 'Content-Type': 'text/csv', Accept: 'text/uri-list' }, body: kaziusCsv(20, i * 20) });
    if (res.status === 200) datasets.push(uris(res.body)[0]!);
  }
  if (compounds.length === 0 || datasets.length === 0) throw new Error('could not seed compounds and datasets');
  return { compounds, datasets };
}

function ops(seeded: { compounds: string[]; datasets: string[] }): Op[] {
  const rows = kazius();
  let n = 0;
  return [
    { kind: 'GET compound', weight: 30, run: (a, _u, pick) => request(a, pick(seeded.compounds), { headers: { Accept: pick(FORMATS) } }) },
    { kind: 'GET dataset', weight: 10, run: (a, _u, pick) => request(a, pick(seeded.datasets), { headers: { Accept: pick(['text/csv', 'text/turtle', 'application/rdf+xml']) } }) },
    { kind: 'GET task list', weight: 5, run: (a, u) => request(a, `${u}/task?max=50`, { headers: { Accept: 'text/uri-list' } }) },
    { kind: 'GET algorithm', weight: 10, run: (a, u, pick) => request(a, pick([`${u}/algorithm`, `${u}/algorithm/knn`, `${u}/algorithm/physchem`]), { headers: { Accept: pick(['text/uri-list', 'text/turtle']) } }) },
    { kind: 'POST compound', weight: 20, run: (a, u, pick) => request(a, `${u}/compound`, { method: 'POST', headers: { 'Content-Type': 'chemical/x-daylight-smiles', Accept: 'text/uri-list' }, body: pick(rows).smiles }) },
    { kind: 'POST dataset', weight: 5, run: (a, u) => request(a, `${u}/dataset`, { method: 'POST', headers: { 'Content-Type': 'text/csv', Accept: 'text/uri-list' }, body: kaziusCsv(5, (n += 5)) }) },
    { kind: 'POST descriptors', weight: 2, run: (a, u, pick) => request(a, `${u}/algorithm/physchem`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'text/uri-list' }, body: `dataset_uri=${encodeURIComponent(pick(seeded.datasets))}` }) },
  ];
}

/**
 * 2xx is ok; 503 (SPEC §4.3, shedding load) or 429 (RFC 6585 §4, the client's own job quota)
 * with Retry-After is the service declining politely; anything else counts as an error.
 */
export function outcome(res: Answer): 'ok' | 'busy' | 'bad' {
  if (res.status >= 200 && res.status < 300) return 'ok';
  if ((res.status === 503 || res.status === 429) && res.headers['retry-after'] !== undefined) return 'busy';
  return 'bad';
}

export async function runLoad(service: Service, connections: number, seconds: number): Promise<LoadResult> {
  const agent = pool(connections);
  const seeded = await seed(agent, service.url);
  const mix = ops(seeded);
  const total = mix.reduce((s, o) => s + o.weight, 0);
  const choose = (): Op => {
    let r = Math.random() * total;
    for (const o of mix) if ((r -= o.weight) < 0) return o;
    return mix[0]!;
  };
  const pick = <T>(xs: T[]): T => xs[Math.floor(Math.random() * xs.length)]!;
  const recorder = new Recorder();
  const rss = sampleRss(service.pid);
  const latency = probe(`${service.url}/algorithm`);
  const until = Date.now() + seconds * 1000;
  await Promise.all(Array.from({ length: connections }, async () => {
    while (Date.now() < until) {
      const op = choose();
      const t0 = performance.now();
      try {
        const res = await op.run(agent, service.url, pick);
        const o = outcome(res);
        recorder.record(op.kind, performance.now() - t0, o, `${res.status} ${res.body.slice(0, 200)}`);
        if (o === 'busy') await new Promise((r) => setTimeout(r, 200));
      } catch (e) {
        recorder.record(op.kind, performance.now() - t0, 'failed', (e as Error).message);
      }
    }
  }));
  const probeMs = await latency.stop();
  agent.destroy();
  return { connections, seconds, recorder, rss: rss.stop(), probeMs };
}
