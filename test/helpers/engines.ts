// The store the suites run against: the embedded one (default), or with STORE=sparql a
// Virtuoso that this harness starts once per run, from a temp dir on a free loopback port,
// and stops when the run ends (remoteHooks.ts, loaded by npm run test:remote; a process exit
// kills it too). Every app of the run keeps its resources in that one Virtuoso: their graphs
// are named under each app's own base URI, and an app's graphs are dropped when it closes.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startVirtuoso, type Virtuoso } from '../../scripts/engines/virtuoso.ts';
import type { Store } from '../../src/store/api.ts';
import { EmbeddedStore } from '../../src/store/embedded/embeddedStore.ts';
import { SparqlStore } from '../../src/store/sparql/store.ts';

/** True in the second run of the suites, against a SPARQL store (npm run test:remote). */
export const remoteStore = process.env.STORE === 'sparql';

/** `describe` in the embedded run; skipped in the remote one (say why beside each use). */
export function describeEmbedded(title: string, fn: (this: Mocha.Suite) => void): Mocha.Suite | void {
  return (remoteStore ? describe.skip : describe)(title, fn);
}

let shared: Promise<{ virtuoso: Virtuoso; dir: string }> | undefined;

/** The run's Virtuoso, started on first use. */
export async function sharedVirtuoso(): Promise<Virtuoso> {
  shared ??= (async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'opentox-virtuoso-'));
    process.once('exit', () => {
      void shared?.then(({ virtuoso }) => virtuoso.process.kill('SIGKILL'));
      rmSync(dir, { recursive: true, force: true });
    });
    // Rows per answer well above any page or chunk the suites read (Virtuoso's default is 10,000).
    return { virtuoso: await startVirtuoso({ dir, maxRows: 1_000_000 }), dir };
  })();
  return (await shared).virtuoso;
}

export async function stopSharedVirtuoso(): Promise<void> {
  if (!shared) return;
  const { virtuoso, dir } = await shared;
  shared = undefined;
  await virtuoso.stop();
  rmSync(dir, { recursive: true, force: true });
}

/** The store an app started on `dataDir` would open, for tests that write before it starts. */
export async function openTestStore(dataDir: string): Promise<Store> {
  if (remoteStore) return new SparqlStore({ queryUrl: (await sharedVirtuoso()).endpoint });
  return EmbeddedStore.open(path.join(dataDir, 'store'));
}

/** Drops every graph named under `prefix` (an app's base URI) from the run's Virtuoso. */
export async function dropGraphsUnder(endpoint: string, prefix: string): Promise<void> {
  const store = new SparqlStore({ queryUrl: endpoint });
  const graphs = (await store.select('graphs-with-prefix', { prefix })).map((r) => r.g.value);
  if (graphs.length > 0) await store.commit(graphs.map((graph) => ({ op: 'drop' as const, graph })));
}
