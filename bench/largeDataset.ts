// A generated 100,000-compound × 20-feature dataset: upload, peak memory, streaming back as
// CSV beside RDF/XML. In process: the service runs inside this benchmark's process
// (test/helpers/app.ts), whose memory the figures report.
import { startApp, type TestApp } from '../test/helpers/app.ts';
import { upload } from './lib/upload.ts';
import { storeSize } from '../test/helpers/store.ts';
import type { BenchModule, BenchRow } from './types.ts';
import { loadAverage } from './lib/idle.ts';

const ROWS = Number(process.env.BENCH_DATASET_ROWS) || 100_000;
const FEATURES = 20;

const fmt = (n: number, digits = 1) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const mib = (bytes: number) => `${fmt(bytes / 1048576, 0)} MiB`;

/** Seconds to read a dataset in `accept`, and the bytes read (the body is consumed as a stream). */
async function download(url: string, accept: string): Promise<{ s: number; bytes: number }> {
  const t = performance.now();
  const res = await fetch(url, { headers: { Accept: accept } });
  let bytes = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) bytes += chunk.length;
  return { s: (performance.now() - t) / 1000, bytes };
}

function generatedCsv(): string {
  const header = ['compound', ...Array.from({ length: FEATURES }, (_, j) => `descriptor ${j + 1}`)].join(',');
  const lines = [header];
  for (let i = 0; i < ROWS; i++) {
    const values = Array.from({ length: FEATURES }, (_, j) => ((i * 7919 + j * 104729) % 100000) / 997);
    lines.push([`http://compounds.example.org/compound/${i + 1}`, ...values.map((v) => v.toFixed(4))].join(','));
  }
  return lines.join('\n') + '\n';
}

async function large(app: TestApp): Promise<BenchRow[]> {
  const csv = generatedCsv();
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 50);
  const before = process.memoryUsage().rss;
  const t = performance.now();
  const dataset = await upload(app.url, csv, 'text/csv');
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
  title: 'Datasets: 100,000 × 20 (in process)',
  run: async () => {
    const app = await startApp({ bodyLimit: 512 * 1024 * 1024 });
    try {
      return await large(app);
    } finally {
      await app.close();
    }
  },
};

export default bench;
