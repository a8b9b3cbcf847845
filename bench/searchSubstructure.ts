// The search bench's substructure rows: every hit of a query fetched over HTTP by following
// the pages' rel="next" links from the default page size, as a client does, against RDKit's
// Python (bench/substructureBaseline.py: pattern-fingerprint screen + HasSubstructMatch on
// molecules parsed beforehand, one process per core) over the same SMILES; both sides' hits
// are compared. Beside each, where the time goes: the screen alone, in process.
import { execFileSync } from 'node:child_process';
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

interface Baseline {
  cores: number;
  results: Array<{ hits: number[]; screened: number; seconds: number }>;
}

function baseline(smiles: readonly string[]): Baseline {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'substructure-baseline-'));
  try {
    const file = path.join(dir, 'structures.smi');
    writeFileSync(file, smiles.join('\n'));
    const queries = SUBSTRUCTURE_QUERIES.map(([, kind, text]) => [kind, text]);
    return JSON.parse(execFileSync('/usr/bin/python3', [BASELINE, file, JSON.stringify(queries)], { encoding: 'utf8', maxBuffer: 256 * 2 ** 20 })) as Baseline;
  } finally {
    rmSync(dir, { recursive: true, force: true });
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
async function followPages(first: string): Promise<{ uris: string[]; pages: number; ms: number }> {
  const started = performance.now();
  const uris: string[] = [];
  let pages = 0;
  for (let next: string | undefined = first; next; pages++) {
    const res: Response = await get(next);
    if (res.status !== 200) throw new Error(`${next}: ${res.status} ${await res.text()}`);
    for (const line of (await res.text()).split('\r\n')) if (line) uris.push(line);
    next = /<([^>]+)>;\s*rel="next"/.exec(res.headers.get('link') ?? '')?.[1];
  }
  return { uris, pages, ms: performance.now() - started };
}

/**
 * `smiles[i]` is the structure stored as `uris[i]`. Each query runs once, on a search the
 * service has not seen (a result is only kept for the pages that follow it).
 */
export async function substructureRows(engine: SearchEngine, baseUrl: string, smiles: readonly string[], uris: readonly string[]): Promise<BenchRow[]> {
  const python = baseline(smiles);
  const indexOf = new Map(uris.map((u, i) => [u, i]));
  const rows: BenchRow[] = [];
  // The matcher processes start with the first search, as Python's pool is made before its clock.
  await followPages(`${baseUrl}/compound?smarts=${encodeURIComponent('[Xe]')}`);
  for (const [q, [name, kind, text]] of SUBSTRUCTURE_QUERIES.entries()) {
    const param = kind === 'smarts' ? 'smarts' : 'substructure';
    const ours = await followPages(`${baseUrl}/compound?${param}=${encodeURIComponent(text)}`);
    const theirs = python.results[q]!;
    const found = new Set(ours.uris.map((u) => indexOf.get(u)));
    const expected = new Set(theirs.hits);
    const missing = theirs.hits.filter((i) => !found.has(i)).length;
    const extra = [...found].filter((i) => i === undefined || !expected.has(i)).length;
    const ratio = (theirs.seconds * 1000) / ours.ms;
    rows.push({
      bench: `${param}=${text} (${name}), every hit over ${ours.pages} pages: ${ours.uris.length.toLocaleString('en')} hits (${missing} of RDKit's missing, ${extra} more)`,
      figure: `${(ours.ms / 1000).toFixed(2)} s`,
      baseline: `RDKit, ${python.cores} processes: ${theirs.hits.length.toLocaleString('en')} hits (${theirs.screened.toLocaleString('en')} screened) in ${theirs.seconds.toFixed(2)} s`,
      ratio: `${ratio.toFixed(2)}× its rate`,
    });
    const screen = screenOf(kind, text);
    const candidates: number[] = [];
    const started = performance.now();
    screenScan(engine.index, screen, 0, engine.index.slots, undefined, candidates);
    const screenMs = performance.now() - started;
    rows.push({ bench: `  its screen alone, in process: ${candidates.length.toLocaleString('en')} candidates`, figure: `${screenMs.toFixed(0)} ms` });
  }
  return rows;
}
