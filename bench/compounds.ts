// Compounds: what the service adds over the raw toolkit calls,
// measured side by side in one run on SMILES from the kazius Ames set.
import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { BenchModule, BenchRow } from './types.ts';
import { startApp } from '../test/helpers/app.ts';
import { sharedData } from '../test/helpers/data.ts';
import { parseStructure } from '../src/chem/index.ts';
import { molfileOfSmiles } from '../src/chem/write.ts';
import { depictPng } from '../src/chem/depict.ts';
import { generateConformers } from '../src/chem/conformers.ts';
import * as OCL from 'openchemlib';

const N = 200;
/** Compounds of the 3D rows, spread over the first 2N valid kazius rows. */
const XYZ_SAMPLE = 20;
const CONFORMER_BASELINE = fileURLToPath(new URL('./conformerBaseline.py', import.meta.url));

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
    if (valid.length === 2 * N + 1) break;
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
    // The first POST starts a parser thread (src/chem/parsePool.ts): timed apart from the rate.
    let t = performance.now();
    await post(smiles[2 * N]!);
    const firstMs = performance.now() - t;
    const sequential = await timed(N, (i) => post(smiles[i]!));
    rows.push({ bench: 'the first POST /compound after start, which starts a parser thread (baseline: a POST of the sequential row)', figure: `${firstMs.toFixed(0)} ms`, baseline: `${(1000 / sequential).toFixed(1)} ms`, ratio: (firstMs * sequential / 1000).toFixed(0) });
    rows.push(row('POST /compound from SMILES, sequential (raw: parseStructure)', sequential, rawParse));
    rows.push(row('POST /compound from SMILES, 16 concurrent (raw: parseStructure)', await concurrent(N, 16, (i) => post(smiles[N + i]!)), rawParse));

    const uris = (await (await fetch(`${app.url}/compound?pagesize=${N}`, { headers: { Accept: 'text/uri-list' } })).text()).trim().split(/\r\n/);
    const get = (i: number, type: string) => fetch(uris[i % uris.length]!, { headers: { Accept: type } }).then((r) => r.arrayBuffer());
    const parsed = smiles.slice(0, N).map((s) => parseStructure(s, 'smiles'));
    // SMILES is written from the in-memory identity, so its baseline is HTTP itself: the same GET as a URI list.
    rows.push(row('GET compound as SMILES (baseline: same GET as text/uri-list)', await timed(N, (i) => get(i, 'chemical/x-daylight-smiles')), await timed(N, (i) => get(i, 'text/uri-list'))));
    rows.push(row('GET compound as molfile (raw: 2D molfile from SMILES)', await timed(N, (i) => get(i, 'chemical/x-mdl-molfile')), await timed(N, (i) => molfileOfSmiles(parsed[i]!.smiles))));
    const images = 50;
    rows.push(row('GET compound as PNG 300x300 (raw: RDKit SVG + resvg)', await timed(images, (i) => get(i, 'image/png')), await timed(images, (i) => depictPng(parsed[i]!.smiles))));

    // 3D: GET as chemical/x-xyz of compounds without coordinates (generated per request),
    // a sample spread over kazius; the same SMILES through RDKit's ETKDG + MMFF94 (Debian
    // python3-rdkit), through the service's own generation in process, and through
    // openchemlib's ConformerGenerator + MMFF94s+ in process.
    const sample = smilesList().filter((_, i) => i % Math.floor((2 * N) / XYZ_SAMPLE) === 0).slice(0, XYZ_SAMPLE);
    const rdkit = JSON.parse(execFileSync('/usr/bin/python3', [CONFORMER_BASELINE], { input: sample.join('\n'), encoding: 'utf8' })) as number[];
    const raw: number[] = [];
    const generator: number[] = [];
    const first: number[] = [];
    const again: number[] = [];
    for (const s of sample) {
      const p = parseStructure(s, 'smiles');
      t = performance.now();
      generateConformers({ molfile: p.molfile, smiles: p.smiles, inchi: p.inchi, count: 1 });
      raw.push(performance.now() - t);
      t = performance.now();
      const one = new OCL.ConformerGenerator(4242).getOneConformerAsMolecule(OCL.Molecule.fromMolfile(p.molfile));
      if (one) new OCL.ForceFieldMMFF94(one, 'MMFF94s+').minimise({ maxIts: 1000 });
      generator.push(performance.now() - t);
      // Stored by the rows above (POST answers the existing compound); none was asked for xyz yet.
      const uri = (await post(s)).trim();
      for (const times of [first, again]) {
        t = performance.now();
        const res = await fetch(uri, { headers: { Accept: 'chemical/x-xyz' } });
        const body = await res.text();
        if (res.status !== 200 || !/^\d+\n/.test(body)) throw new Error(`xyz of ${uri}: ${res.status} ${body.slice(0, 200)}`);
        times.push(performance.now() - t);
      }
    }
    const ms = (v: number) => `${(v / 1000).toFixed(2)} s`;
    const median = (v: number[]) => quantile(v, 0.5);
    const msRow = (bench: string, figure: number[], baseline: number[]): BenchRow => ({ bench, figure: ms(median(figure)), baseline: ms(median(baseline)), ratio: (median(figure) / median(baseline)).toFixed(2) });
    rows.push(msRow(`GET compound as chemical/x-xyz, median of ${sample.length} kazius compounds (RDKit ETKDGv3 + MMFF94, python)`, first, rdkit));
    rows.push(msRow('the same GET, median (raw: the service\'s generateConformers in-process)', first, raw));
    rows.push(msRow('the same GET, median (openchemlib ConformerGenerator + MMFF94s+ in-process)', first, generator));
    rows.push(msRow('the same GET again, median (baseline: the first GET)', again, first));
    return rows;
  } finally {
    await app.close();
  }
}

const bench: BenchModule = { title: 'Compounds and conformers', run };
export default bench;
