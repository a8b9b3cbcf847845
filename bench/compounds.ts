// Compounds: what the service adds over the raw toolkit calls,
// measured side by side in one run on SMILES from the kazius Ames set.
import { readFileSync } from 'node:fs';
import type { BenchModule, BenchRow } from './types.ts';
import { startApp } from '../test/helpers/app.ts';
import { sharedData } from '../test/helpers/data.ts';
import { parseStructure } from '../src/chem/index.ts';
import { molfileOfSmiles } from '../src/chem/write.ts';
import { depictPng } from '../src/chem/depict.ts';
import { generateConformers } from '../src/chem/conformers.ts';

const N = 200;
const CONFORMER_MOLECULES = ['CCO', 'CC(=O)Oc1ccccc1C(=O)O', 'C[C@H](N)C(=O)O', 'CN1CCC[C@H]1c1cccnc1', 'OCC(O)CO'];

function smilesList(): string[] {
  const lines = readFileSync(sharedData('opentox-test', 'kazius.csv'), 'utf8').split(/\r?\n/).slice(1);
  const valid: string[] = [];
  for (const line of lines) {
    const smiles = line.split(',')[0]!;
    try {
      parseStructure(smiles, 'smiles');
      valid.push(smiles);
    } catch {
      continue;
    }
    if (valid.length === 2 * N) break;
  }
  return valid;
}

async function timed(n: number, fn: (i: number) => unknown | Promise<unknown>): Promise<number> {
  const t = performance.now();
  for (let i = 0; i < n; i++) await fn(i);
  return (n * 1000) / (performance.now() - t);
}

async function concurrent(items: number, workers: number, fn: (i: number) => Promise<unknown>): Promise<number> {
  let next = 0;
  const t = performance.now();
  await Promise.all(Array.from({ length: workers }, async () => {
    while (next < items) await fn(next++);
  }));
  return (items * 1000) / (performance.now() - t);
}

const rate = (r: number, unit = '/s') => `${r.toFixed(r < 10 ? 2 : 0)}${unit}`;
const row = (bench: string, figure: number, baseline: number, unit = '/s'): BenchRow => ({
  bench, figure: rate(figure, unit), baseline: rate(baseline, unit), ratio: (figure / baseline).toFixed(2),
});

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

async function run(): Promise<BenchRow[]> {
  const app = await startApp();
  try {
    const smiles = smilesList();
    const post = (s: string) => fetch(`${app.url}/compound`, { method: 'POST', headers: { 'Content-Type': 'chemical/x-daylight-smiles' }, body: s }).then((r) => r.text());
    const rows: BenchRow[] = [];
    const rawParse = await timed(N, (i) => parseStructure(smiles[i]!, 'smiles'));
    rows.push(row('POST /compound from SMILES, sequential (raw: parseStructure)', await timed(N, (i) => post(smiles[i]!)), rawParse));
    rows.push(row('POST /compound from SMILES, 16 concurrent (raw: parseStructure)', await concurrent(N, 16, (i) => post(smiles[N + i]!)), rawParse));

    const uris = (await (await fetch(`${app.url}/compound?pagesize=${N}`, { headers: { Accept: 'text/uri-list' } })).text()).trim().split(/\r\n/);
    const get = (i: number, type: string) => fetch(uris[i % uris.length]!, { headers: { Accept: type } }).then((r) => r.arrayBuffer());
    const parsed = smiles.slice(0, N).map((s) => parseStructure(s, 'smiles'));
    // SMILES is written from the in-memory identity, so its baseline is HTTP itself: the same GET as a URI list.
    rows.push(row('GET compound as SMILES (baseline: same GET as text/uri-list)', await timed(N, (i) => get(i, 'chemical/x-daylight-smiles')), await timed(N, (i) => get(i, 'text/uri-list'))));
    rows.push(row('GET compound as molfile (raw: 2D molfile from SMILES)', await timed(N, (i) => get(i, 'chemical/x-mdl-molfile')), await timed(N, (i) => molfileOfSmiles(parsed[i]!.smiles))));
    const images = 50;
    rows.push(row('GET compound as PNG 300x300 (raw: RDKit SVG + resvg)', await timed(images, (i) => get(i, 'image/png')), await timed(images, (i) => depictPng(parsed[i]!.smiles))));

    const service: number[] = [];
    const raw: number[] = [];
    for (const s of CONFORMER_MOLECULES) {
      const p = parseStructure(s, 'smiles');
      let t = performance.now();
      generateConformers({ molfile: p.molfile, smiles: p.smiles, inchi: p.inchi, count: 1 });
      raw.push(performance.now() - t);
      const uri = (await post(s)).trim();
      t = performance.now();
      const started = await fetch(`${uri}/conformer`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'text/uri-list' }, body: 'generate=1' });
      let task = await fetch((await started.text()).trim(), { headers: { Accept: 'text/uri-list' } });
      while (task.status === 202) {
        await new Promise((r) => setTimeout(r, 50));
        task = await fetch(task.url, { headers: { Accept: 'text/uri-list' } });
      }
      service.push(performance.now() - t);
    }
    const ms = (v: number) => `${(v / 1000).toFixed(2)} s`;
    rows.push({ bench: `3D conformer per molecule, median of ${CONFORMER_MOLECULES.length} (raw: ConformerGenerator + MMFF94s+ in-process)`, figure: ms(quantile(service, 0.5)), baseline: ms(quantile(raw, 0.5)), ratio: (quantile(service, 0.5) / quantile(raw, 0.5)).toFixed(2) });
    rows.push({ bench: '3D conformer per molecule, 90th percentile', figure: ms(quantile(service, 0.9)), baseline: ms(quantile(raw, 0.9)), ratio: (quantile(service, 0.9) / quantile(raw, 0.9)).toFixed(2) });
    rows.push(row('3D conformers per second (1 per molecule)', (service.length * 1000) / service.reduce((a, b) => a + b, 0), (raw.length * 1000) / raw.reduce((a, b) => a + b, 0)));
    return rows;
  } finally {
    await app.close();
  }
}

const bench: BenchModule = { title: 'Compounds and conformers', run };
export default bench;
