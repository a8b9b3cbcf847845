// The search bench's substructure rows: every hit of a query fetched over HTTP by following
// the pages' rel="next" links from the default page size, as a client does, against RDKit's
// Python (bench/substructureBaseline.py: pattern-fingerprint screen + HasSubstructMatch on
// molecules parsed beforehand, one process per core, asked each query just before ours) over
// the same SMILES, the median of three runs on both sides; both sides' hits are compared.
// Beside each, where the time goes: the screen alone, in process.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { screenOf, type QueryKind } from '../src/chem/smarts.ts';
import { screenScan } from '../src/search/scan.ts';
import type { SearchEngine } from '../src/search/engine.ts';
import type { BenchRow } from './types.ts';

const BASELINE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'substructureBaseline.py');

/** [name, parameter, text]: each group as SMILES and as SMARTS, charged atoms included. */
export const SUBSTRUCTURE_QUERIES: Array<[string, QueryKind, string]> = [
  ['benzene ring', 'smiles', 'c1ccccc1'],
  ['benzene ring', 'smarts', 'c1ccccc1'],
  ['carboxylic acid', 'smiles', 'OC=O'],
  ['carboxylic acid', 'smarts', 'C(=O)[OH]'],
  ['nitro group', 'smiles', '[N+](=O)[O-]'],
  ['nitro group', 'smarts', '[N+](=O)[O-]'],
];

interface BaselineAnswer {
  hits: number[];
  screened: number;
  seconds: number;
}

/** RDKit's Python over `smiles`, asked one query at a time (beside ours, in the same machine state). */
class Baseline {
  private readonly child;
  private readonly lines: AsyncIterator<string>;
  private readonly dir = mkdtempSync(path.join(os.tmpdir(), 'substructure-baseline-'));

  constructor(smiles: readonly string[]) {
    const file = path.join(this.dir, 'structures.smi');
    writeFileSync(file, smiles.join('\n'));
    this.child = spawn('/usr/bin/python3', [BASELINE, file], { stdio: ['pipe', 'pipe', 'inherit'] });
    this.lines = createInterface({ input: this.child.stdout })[Symbol.asyncIterator]();
  }

  async next<T>(): Promise<T> {
    const line = await this.lines.next();
    if (line.done) throw new Error('substructureBaseline.py ended');
    return JSON.parse(line.value) as T;
  }

  ask(kind: QueryKind, text: string): Promise<BaselineAnswer> {
    this.child.stdin.write(JSON.stringify([kind, text]) + '\n');
    return this.next();
  }

  close(): void {
    this.child.stdin.end();
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** A GET; once more when a kept-alive connection was closed as it was reused (Node's 5 s idle timeout). */
async function get(url: string): Promise<Response> {
  const once = () => fetch(url, { headers: { Accept: 'text/uri-list' } });
  try {
    return await once();
  } catch (e) {
    if ((e as { cause?: { code?: string } }).cause?.code !== 'ECONNRESET') throw e;
    return once();
  }
}

/** Every hit of a search, page after page; answers the hits' URIs, the pages and the time. */
async function followPages(first: string): Promise<{ uris: string[]; pages: number; ms: number; slowest: number }> {
  const started = performance.now();
  const uris: string[] = [];
  let pages = 0;
  let slowest = 0;
  for (let next: string | undefined = first; next; pages++) {
    const asked = performance.now();
    const res: Response = await get(next);
    slowest = Math.max(slowest, performance.now() - asked);
    if (res.status !== 200) throw new Error(`${next}: ${res.status} ${await res.text()}`);
    for (const line of (await res.text()).split('\r\n')) if (line) uris.push(line);
    next = /<([^>]+)>;\s*rel="next"/.exec(res.headers.get('link') ?? '')?.[1];
  }
  return { uris, pages, ms: performance.now() - started, slowest };
}

/** A compound stored and removed: the index changed, so no search is kept for its next pages. */
function forgetKeptSearches(engine: SearchEngine): void {
  engine.indexCompound('http://bench/compound/written-between-runs', 'C');
  engine.removeCompound('http://bench/compound/written-between-runs');
}

/**
 * `smiles[i]` is the structure stored as `uris[i]`. Each query runs three times, each a search
 * the service has not kept (a result is only kept for the pages that follow it), once the
 * matchers hold every molecule parsed; the median is set beside RDKit's median of three.
 */
export async function substructureRows(engine: SearchEngine, baseUrl: string, smiles: readonly string[], uris: readonly string[]): Promise<BenchRow[]> {
  const python = new Baseline(smiles);
  const { cores } = await python.next<{ cores: number }>();
  const indexOf = new Map(uris.map((u, i) => [u, i]));
  const rows: BenchRow[] = [];
  // The matcher processes start with the first search, as Python's pool is made before its clock.
  await followPages(`${baseUrl}/compound?smarts=${encodeURIComponent('[Xe]')}`);
  // The first search after a start parses (unpickles) every candidate: timed on its own, with
  // benzene in Kekulé form (the same query under another text, so the rows below do not reuse it).
  const cold = await followPages(`${baseUrl}/compound?substructure=${encodeURIComponent('C1=CC=CC=C1')}&pagesize=${uris.length}`);
  rows.push({ bench: `the first search after a start, in one page: substructure=C1=CC=CC=C1 (benzene), ${cold.uris.length.toLocaleString('en')} hits, each candidate unpickled`, figure: `${(cold.ms / 1000).toFixed(2)} s` });
  // Python's molecules are parsed before its clock; the matchers' are, by a search every
  // structure matches (they keep what they parse: SEARCH_MOLECULE_CACHE).
  const warm = await followPages(`${baseUrl}/compound?smarts=*&pagesize=${uris.length}`);
  rows.push({ bench: `  then every structure parsed by the matchers (smarts=*, one page, ${warm.uris.length.toLocaleString('en')} hits), as RDKit's are before its clock`, figure: `${(warm.ms / 1000).toFixed(2)} s` });
  for (const [name, kind, text] of SUBSTRUCTURE_QUERIES) {
    const param = kind === 'smarts' ? 'smarts' : 'substructure';
    const theirs = await python.ask(kind, text);
    // Median of 3, as RDKit's; each run a search the service has not kept.
    const runs = [];
    for (let run = 0; run < 3; run++) {
      runs.push(await followPages(`${baseUrl}/compound?${param}=${encodeURIComponent(text)}`));
      forgetKeptSearches(engine);
    }
    const ours = runs.sort((a, b) => a.ms - b.ms)[1]!;
    const found = new Set(ours.uris.map((u) => indexOf.get(u)));
    const expected = new Set(theirs.hits);
    const missing = theirs.hits.filter((i) => !found.has(i)).length;
    const extra = [...found].filter((i) => i === undefined || !expected.has(i)).length;
    const ratio = (theirs.seconds * 1000) / ours.ms;
    rows.push({
      bench: `${param}=${text} (${name}), every hit over ${ours.pages} pages: ${ours.uris.length.toLocaleString('en')} hits (${missing} of RDKit's missing, ${extra} more)`,
      figure: `${(ours.ms / 1000).toFixed(2)} s`,
      baseline: `RDKit, ${cores} processes: ${theirs.hits.length.toLocaleString('en')} hits (${theirs.screened.toLocaleString('en')} screened) in ${theirs.seconds.toFixed(2)} s`,
      ratio: `${ratio.toFixed(2)}× its rate`,
    });
    const screen = screenOf(kind, text);
    const candidates: number[] = [];
    const started = performance.now();
    screenScan(engine.index, screen, 0, engine.index.slots, undefined, candidates);
    const screenMs = performance.now() - started;
    rows.push({ bench: `  its screen alone, in process: ${candidates.length.toLocaleString('en')} candidates`, figure: `${screenMs.toFixed(0)} ms` });
    // The same search in process in one call, over a scope naming every compound (a search the service has not kept).
    const direct = performance.now();
    const all = await engine.substructure(kind, text, { within: uris });
    rows.push({ bench: `  every hit in process in one call (${all.length.toLocaleString('en')}); the slowest page above took ${ours.slowest.toFixed(0)} ms`, figure: `${((performance.now() - direct) / 1000).toFixed(2)} s` });
  }
  python.close();
  return rows;
}
