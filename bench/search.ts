// Structure search benchmark: 100,000 compounds generated from the shared data
// sets by simple substitutions, searched over HTTP through the real route; beside each
// figure, the raw toolkit's rate for the same comparisons (RDKit parsing each molecule and
// comparing it, over a sample, extrapolated to the collection), and the index's memory.
// The generated index is cached in a temp directory between runs (generation is slow).
import { readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '../src/config.ts';
import { createApp } from '../src/app.ts';
import { SearchEngine } from '../src/search/engine.ts';
import { EmbeddedStore } from '../src/store/embedded/embeddedStore.ts';
import { JobEngine } from '../src/tasks/engine.ts';
import { NoChangeFeed } from '../src/store/changeFeed.ts';
import { createLogger } from '../src/logger.ts';
import { searchToolkit } from '../src/chem/fingerprints.ts';
import { popcount32 } from '../src/search/bits.ts';
import type { AlgorithmIO } from '../src/algorithms/io.ts';
import type { BenchModule, BenchRow } from './types.ts';
import { substructureRows } from './searchSubstructure.ts';

/** Collection size; BENCH_SEARCH_N makes a quick run (its cache is kept apart). */
const TARGET = Number(process.env.BENCH_SEARCH_N ?? 100_000);
/** SEARCH_MOLECULE_CACHE of the substructure rows: BENCH_MOLECULE_CACHE, or enough for the whole collection. */
const MOLECULE_CACHE = Number(process.env.BENCH_MOLECULE_CACHE ?? Math.ceil(TARGET / os.availableParallelism()));
const CACHE = path.join(os.tmpdir(), `opentox-search-bench-${TARGET}`);
const DATA = [path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../shared/data/opentox-test'), '/work/shared/data/opentox-test'];
const FILES = ['kazius.csv', 'EPAFHM.csv', 'LOAEL_log_mmol_corrected_smiles.csv', 'hamster_carcinogenicity.csv', 'ISSCAN-multi.csv'];
/** Groups bonded to the first atom of a base structure; invalid products are skipped. */
const PREFIXES = ['', 'C', 'CC', 'Cl', 'F', 'Br', 'O', 'N', 'OC', 'CCC', 'FC(F)(F)', 'N#C', 'O=C(O)', '[O-][N+](=O)', 'CC(C)', 'c1ccccc1', 'OCC', 'NC', 'CO', 'ClC', 'S', 'CS', 'I', 'CCCC', 'OC(=O)C', 'C1CC1', 'NC(=O)'];

function baseSmiles(): string[] {
  const dir = DATA.find((d) => { try { readFileSync(path.join(d, FILES[0]!)); return true; } catch { return false; } }) ?? DATA[1]!;
  const out = new Set<string>();
  for (const f of FILES) {
    for (const line of readFileSync(path.join(dir, f), 'utf8').split(/\r?\n/).slice(1)) {
      const s = line.split(',')[0]!.replace(/^["']|["']$/g, '').trim();
      if (s) out.add(s);
    }
  }
  return [...out];
}

async function buildIndex(): Promise<{ engine: SearchEngine; smiles: string[]; uris: string[]; built: number }> {
  const engine = await SearchEngine.open({ dataDir: CACHE, timeoutMs: 600_000, workers: os.availableParallelism(), moleculeCache: MOLECULE_CACHE });
  const bases = baseSmiles();
  const smiles: string[] = [];
  const uris: string[] = [];
  let n = 0;
  let built = 0;
  for (const prefix of PREFIXES) {
    for (const base of bases) {
      if (smiles.length >= TARGET) break;
      const uri = `http://bench/compound/${n++}`;
      if (!engine.index.has(uri) && engine.index.size < TARGET) {
        engine.indexCompound(uri, prefix + base);
        built++;
        if (built % 10_000 === 0) process.stderr.write(`search bench: ${engine.index.size} compounds indexed\n`);
      }
      if (engine.index.has(uri)) {
        smiles.push(prefix + base);
        uris.push(uri);
      }
    }
  }
  return { engine, smiles, uris, built };
}

const rate = (n: number, ms: number): string => `${(n / (ms / 1000)).toFixed(n / (ms / 1000) < 10 ? 2 : 0)}/s`;

/** Runs `once` until `minMs` has passed (at least `minRuns` times); answers runs and ms. */
async function timed(once: (i: number) => Promise<void>, minMs: number, minRuns: number): Promise<{ runs: number; ms: number }> {
  const start = performance.now();
  let runs = 0;
  while (runs < minRuns || performance.now() - start < minMs) await once(runs++);
  return { runs, ms: performance.now() - start };
}

/** Per-molecule cost of the raw toolkit doing `compare` after parsing, in ms. */
function rawCost(sample: string[], compare: (mol: NonNullable<ReturnType<ReturnType<typeof searchToolkit>['get_mol']>>) => void): number {
  const rd = searchToolkit();
  const start = performance.now();
  for (const s of sample) {
    const mol = rd.get_mol(s);
    if (!mol) continue;
    try { compare(mol); } finally { mol.delete(); }
  }
  return (performance.now() - start) / sample.length;
}

async function run(): Promise<BenchRow[]> {
  const started = performance.now();
  const { engine, smiles, uris, built } = await buildIndex();
  const buildMs = performance.now() - started;
  const storeDir = path.join(os.tmpdir(), `opentox-search-bench-store-${process.pid}`);
  const store = await EmbeddedStore.open(storeDir);
  const config = loadConfig([], {}, { port: 0, dataDir: CACHE, searchTimeoutMs: 600_000, maxPageSize: TARGET });
  const logger = createLogger('silent');
  const tasks = new JobEngine({ config, store, logger });
  const server = createApp({ config, store, tasks, search: engine, changes: new NoChangeFeed(), logger, io: undefined as unknown as AlgorithmIO, predictors: new Map() }).listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  config.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const get = async (query: string): Promise<number> => {
    const res = await fetch(`${config.baseUrl}/compound?${query}${query.includes('pagesize') ? '' : `&pagesize=${TARGET}`}`, { headers: { Accept: 'text/uri-list' } });
    if (res.status !== 200) throw new Error(`${query}: ${res.status} ${await res.text()}`);
    return (await res.text()).split('\r\n').length - 1;
  };
  const N = engine.index.size;
  const rows: BenchRow[] = [{ bench: `index of ${N.toLocaleString('en')} compounds`, figure: `${(engine.index.memoryBytes() / 2 ** 20).toFixed(1)} MiB (${Math.round(engine.index.memoryBytes() / N)} B/compound)`, baseline: built ? `built ${built.toLocaleString('en')} in ${(buildMs / 1000).toFixed(0)} s` : `loaded from cache in ${(buildMs / 1000).toFixed(1)} s` }];

  const sample = Array.from({ length: 1000 }, (_, i) => smiles[(i * 7919) % smiles.length]!);
  const queries = sample.slice(0, 50);
  const rd = searchToolkit();
  const opts = JSON.stringify({ radius: 2, nBits: 2048 });
  let hits = 0;
  const sim = await timed(async (i) => { hits += await get('similarity=' + encodeURIComponent(queries[i % queries.length]!) + '&threshold=0.7'); }, 3000, 10);
  const q = rd.get_mol(queries[0]!)!;
  const qfp: Uint8Array = q.get_morgan_fp_as_uint8array(opts);
  q.delete();
  const simCost = rawCost(sample, (mol) => {
    const fp: Uint8Array = mol.get_morgan_fp_as_uint8array(opts);
    let c = 0, a = 0, b = 0;
    for (let k = 0; k < fp.length; k++) { c += popcount32(fp[k]! & qfp[k]!); a += popcount32(qfp[k]!); b += popcount32(fp[k]!); }
    void (c / (a + b - c));
  });
  const simRaw = 1000 / (simCost * N);
  const simRate = sim.runs / (sim.ms / 1000);
  rows.push({ bench: `similarity search, threshold 0.7 (${(hits / sim.runs).toFixed(1)} hits avg)`, figure: rate(sim.runs, sim.ms), baseline: `RDKit parse + Morgan + Tanimoto per molecule: ${simRaw.toFixed(3)}/s`, ratio: `${(simRate / simRaw).toFixed(0)}x` });

  rows.push({ bench: `substructure: ${os.availableParallelism()} matcher processes, each keeping up to ${MOLECULE_CACHE.toLocaleString('en')} parsed molecules (SEARCH_MOLECULE_CACHE; BENCH_MOLECULE_CACHE sets it)`, figure: '' });
  rows.push(...(await substructureRows(engine, config.baseUrl, smiles, uris)));
  server.close();
  await tasks.close();
  await store.close();
  rmSync(storeDir, { recursive: true, force: true });
  await engine.close();
  return rows;
}

const bench: BenchModule = { title: 'Structure search', run };
export default bench;
