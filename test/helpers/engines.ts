// The store the suites run against: the embedded one (default), or with STORE=sparql
// Virtuoso. In the remote run each live app gets a Virtuoso of its own from a pool that this
// harness starts on demand (temp dirs, free loopback ports): an app that closes has its
// store emptied and handed to the next one, and an app closed with keepData keeps its store
// for the app that restarts on the same data directory. Apps never see each other's
// resources, as with the embedded store. remoteHooks.ts stops the pool when the run ends
// (npm run test:remote); a process exit kills it too.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ISQL_BIN, startVirtuoso, type Virtuoso } from '../../scripts/engines/virtuoso.ts';
import type { Config } from '../../src/config.ts';
import type { Store } from '../../src/store/api.ts';
import { TripleStore } from '../../src/store/embedded/store.ts';
import { SparqlStore } from '../../src/store/sparql/store.ts';

const run = promisify(execFile);

/** True in the second run of the suites, against a SPARQL store (npm run test:remote). */
export const remoteStore = process.env.STORE === 'sparql';

/** `describe` in the embedded run; skipped in the remote one (say why beside each use). */
export function describeEmbedded(title: string, fn: (this: Mocha.Suite) => void): Mocha.Suite | void {
  return (remoteStore ? describe.skip : describe)(title, fn);
}

interface Instance {
  virtuoso: Virtuoso;
  dir: string;
}

const all: Instance[] = [];
const free: Instance[] = [];
const byKey = new Map<string, Instance>();

process.once('exit', () => {
  for (const { virtuoso, dir } of all) {
    virtuoso.process.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
});

async function start(): Promise<Instance> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'opentox-virtuoso-'));
  // Rows per answer well above any page or chunk the suites read (Virtuoso's default is 10,000).
  const instance = { virtuoso: await startVirtuoso({ dir, maxRows: 1_000_000 }), dir };
  all.push(instance);
  return instance;
}

/** Empties a store for its next app: every quad but Virtuoso's own schema graphs. */
async function wipe({ virtuoso }: Instance): Promise<void> {
  const keep = ['http://www.openlinksw.com/schemas/virtrdf#', 'http://localuriqaserver/sparql', 'http://www.w3.org/ns/ldp#'].map((g) => `iri_to_id('${g}')`).join(', ');
  await run(ISQL_BIN, [`127.0.0.1:${virtuoso.sqlPort}`, 'dba', 'dba', `exec=log_enable(3,1); DELETE FROM DB.DBA.RDF_QUAD WHERE G NOT IN (${keep});`]);
}

/** The Virtuoso of `key` (an app's data directory): the one it had, a free one, or a new one. */
export async function virtuosoFor(key: string): Promise<Virtuoso> {
  let instance = byKey.get(key);
  if (!instance) {
    // A pooled Virtuoso that has exited since (it crashed) is not handed out again.
    while (free.length > 0 && !alive(free.at(-1)!)) drop(free.pop()!);
    instance = free.pop() ?? (await start());
    byKey.set(key, instance);
  }
  return instance.virtuoso;
}

const alive = ({ virtuoso }: Instance): boolean => virtuoso.process.exitCode === null && virtuoso.process.signalCode === null;

function drop(instance: Instance): void {
  all.splice(all.indexOf(instance), 1);
  rmSync(instance.dir, { recursive: true, force: true });
}

/**
 * For a failure's message: whether `key`'s Virtuoso still runs, else how it ended and the end
 * of its log (Debian's 7.2 has been seen to exit under the distributed test's load).
 */
export function virtuosoState(key: string): string {
  const instance = byKey.get(key);
  if (!instance) return `no Virtuoso for ${key}`;
  if (alive(instance)) return 'Virtuoso is running';
  const { exitCode, signalCode } = instance.virtuoso.process;
  const file = path.join(instance.dir, 'virtuoso.log');
  const log = existsSync(file) ? readFileSync(file, 'utf8').slice(-1500) : '(no virtuoso.log)';
  return `Virtuoso exited (code ${exitCode}, signal ${signalCode}); virtuoso.log ends with:\n${log}`;
}

/** Gives `key`'s Virtuoso back to the pool, emptied, unless its data is kept for a restart. */
export async function releaseVirtuoso(key: string, keepData = false): Promise<void> {
  const instance = byKey.get(key);
  if (!instance || keepData) return;
  byKey.delete(key);
  await wipe(instance);
  // A store whose indexes an app's writes broke (Virtuoso 7.2 "out of seg data", docs/engines.md)
  // would fail the next app's tests too: only a store that still takes a write goes back.
  if (await takesWrites(instance)) free.push(instance);
  else {
    all.splice(all.indexOf(instance), 1);
    await instance.virtuoso.stop();
    rmSync(instance.dir, { recursive: true, force: true });
  }
}

async function takesWrites({ virtuoso }: Instance): Promise<boolean> {
  const update = 'INSERT DATA { GRAPH <urn:x-test:probe> { <urn:x-test:s> <urn:x-test:p> "probe" } } ; DROP SILENT GRAPH <urn:x-test:probe>';
  try {
    const res = await fetch(virtuoso.endpoint, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ update }), signal: AbortSignal.timeout(10_000) });
    return res.ok;
  } catch {
    return false;
  }
}

/** Configuration for an app on `dataDir`: its own Virtuoso in the remote run, nothing otherwise. */
export async function storeConfig(dataDir: string): Promise<Partial<Config>> {
  if (!remoteStore) return {};
  const { endpoint, graphStore } = await virtuosoFor(dataDir);
  return { sparqlEndpoint: endpoint, sparqlGraphStore: graphStore };
}

/** The store an app started on `dataDir` would open, for tests that write before it starts. */
export async function openTestStore(dataDir: string): Promise<Store> {
  if (remoteStore) {
    const { endpoint, graphStore } = await virtuosoFor(dataDir);
    return new SparqlStore({ queryUrl: endpoint, graphStoreUrl: graphStore });
  }
  return TripleStore.open(path.join(dataDir, 'store'));
}

export async function stopVirtuosos(): Promise<void> {
  free.length = 0;
  byKey.clear();
  for (const { virtuoso, dir } of all.splice(0)) {
    await virtuoso.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
