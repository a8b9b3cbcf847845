// Dataset benchmarks: kazius.csv uploaded to a finished dataset
// beside the toolkit's own parse rate of the same file (the Ruby service took 37 s), and a
// generated 100,000-compound × 20-feature dataset: upload, peak memory, streaming back.
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { startApp, type TestApp } from '../test/helpers/app.ts';
import { sharedData } from '../test/helpers/data.ts';
import { followTask } from '../test/helpers/datasets.ts';
import { readCsv } from '../src/datasets/csv.ts';
import { parseStructure } from '../src/chem/index.ts';
import type { BenchModule, BenchRow } from './types.ts';
import { storeSize } from '../test/helpers/store.ts';
import { warmWorkers } from '../src/boot.ts';

const RUBY_KAZIUS_S = 37;
const ROWS = Number(process.env.BENCH_DATASET_ROWS) || 100_000;
const FEATURES = 20;

const fmt = (n: number, digits = 1) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const mib = (bytes: number) => `${fmt(bytes / 1048576, 0)} MiB`;

async function upload(app: TestApp, body: string, type: string): Promise<string> {
  const res = await fetch(app.url + '/dataset', { method: 'POST', headers: { 'Content-Type': type, Accept: 'text/uri-list' }, body });
  const text = (await res.text()).trim();
  const done = res.status === 202 ? await followTask(text, 3_600_000) : { status: res.status, body: text };
  if (done.status !== 200) throw new Error(`upload failed: ${done.status} ${done.body}`);
  return done.body;
}

/** Seconds to read a dataset in `accept`, and the bytes read (the body is consumed as a stream). */
async function download(url: string, accept: string): Promise<{ s: number; bytes: number }> {
  const t = performance.now();
  const res = await fetch(url, { headers: { Accept: accept } });
  let bytes = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) bytes += chunk.length;
  return { s: (performance.now() - t) / 1000, bytes };
}

const loadAverage = (): string => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

function generatedCsv(): string {
  const header = ['compound', ...Array.from({ length: FEATURES }, (_, j) => `descriptor ${j + 1}`)].join(',');
  const lines = [header];
  for (let i = 0; i < ROWS; i++) {
    const values = Array.from({ length: FEATURES }, (_, j) => ((i * 7919 + j * 104729) % 100000) / 997);
    lines.push([`http://compounds.example.org/compound/${i + 1}`, ...values.map((v) => v.toFixed(4))].join(','));
  }
  return lines.join('\n') + '\n';
}

export async function kazius(app: TestApp): Promise<BenchRow[]> {
  const text = readFileSync(sharedData('opentox-test', 'kazius.csv'), 'utf8');
  const rows = readCsv(text).rows;
  let t = performance.now();
  for (const r of rows) {
    try {
      parseStructure(r.structure!.text, 'smiles');
    } catch {
      // unreadable rows count as parsed: the service reports them as warnings
    }
  }
  const rawS = (performance.now() - t) / 1000;
  // What a parse worker does per structure (src/datasets/parseWorker.ts): the parse without
  // a molfile (SMILES input has no coordinates to keep) and the search fingerprints but the
  // pattern, which the search index computes later.
  t = performance.now();
  for (const r of rows) {
    try {
      parseStructure(r.structure!.text, 'smiles', { molfile: 'withCoordinates', fingerprints: 'withoutPattern' });
    } catch {
      // as above
    }
  }
  const workS = (performance.now() - t) / 1000;
  // The upload parses in the worker pool (one thread per core by default): its ceiling is
  // the one-thread rate times the cores.
  const cores = app.deps.config.workers || os.availableParallelism();
  // As `npm start` does once it listens: the threads are started and their toolkits loaded
  // before the first upload arrives.
  await warmWorkers(app.deps);
  t = performance.now();
  await upload(app, text, 'text/csv');
  const uploadS = (performance.now() - t) / 1000;
  return [
    { bench: `kazius.csv upload to a finished dataset (${rows.length} rows, worker threads started as at service start)`, figure: `${fmt(uploadS)} s, ${fmt(rows.length / uploadS, 0)} compounds/s`, baseline: `toolkit parse alone, one thread: ${fmt(rawS)} s, ${fmt(rows.length / rawS, 0)} compounds/s`, ratio: `${fmt(rawS / uploadS, 2)}× the one-thread rate, ${fmt(rawS / uploadS / cores, 2)}× that rate × ${cores} cores` },
    { bench: 'kazius.csv upload against the parse worker\'s own work', figure: `${fmt(uploadS)} s`, baseline: `parse + search fingerprints but the pattern, one thread: ${fmt(workS)} s, ${fmt(rows.length / workS, 0)} compounds/s`, ratio: `${fmt(workS / uploadS / cores, 2)}× that rate × ${cores} cores (load average ${loadAverage()})` },
    { bench: 'kazius.csv upload vs the Ruby OpenTox service', figure: `${fmt(uploadS)} s`, baseline: `${RUBY_KAZIUS_S} s (published, not this machine)`, ratio: `${fmt(RUBY_KAZIUS_S / uploadS, 1)}× faster` },
  ];
}

export async function large(app: TestApp): Promise<BenchRow[]> {
  const csv = generatedCsv();
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 50);
  const before = process.memoryUsage().rss;
  const t = performance.now();
  const dataset = await upload(app, csv, 'text/csv');
  const uploadS = (performance.now() - t) / 1000;
  const afterUpload = process.memoryUsage().rss;
  const asCsv = await download(dataset, 'text/csv');
  const asXml = await download(dataset, 'application/rdf+xml');
  const load = loadAverage();
  clearInterval(sampler);
  const values = ROWS * FEATURES;
  return [
    { bench: `upload ${fmt(ROWS, 0)} compounds × ${FEATURES} features (CSV, ${mib(csv.length)})`, figure: `${fmt(uploadS)} s`, baseline: `${fmt(values / uploadS, 0)} values/s` },
    { bench: 'memory: peak RSS during upload and download', figure: mib(peak), baseline: `RSS before ${mib(before)}, after upload ${mib(afterUpload)}`, ratio: `store holds ${fmt(await storeSize(app.deps.store), 0)} triples` },
    { bench: 'stream the dataset back as text/csv', figure: `${fmt(asCsv.s)} s, ${mib(asCsv.bytes)}`, baseline: `RDF/XML of the same dataset: ${fmt(ROWS / asXml.s, 0)} rows/s`, ratio: `${fmt(ROWS / asCsv.s, 0)} rows/s, ${fmt(asXml.s / asCsv.s, 2)}× the RDF/XML rate (load average ${load})` },
    { bench: 'stream the dataset back as application/rdf+xml', figure: `${fmt(asXml.s)} s`, baseline: mib(asXml.bytes), ratio: `${fmt(ROWS / asXml.s, 0)} rows/s` },
  ];
}

const bench: BenchModule = {
  title: 'Datasets',
  run: async () => {
    const app = await startApp({ bodyLimit: 512 * 1024 * 1024 });
    try {
      return [...(await kazius(app)), ...(await large(app))];
    } finally {
      await app.close();
    }
  },
};

export default bench;
