// Durability (docs/ARCHITECTURE.md, Store: every acknowledged write is journaled): the
// server is SIGKILLed in the middle of a stream of writes (while snapshots are being
// taken); after a restart on the same data directory every write that got a 2xx is there
// with its content, and the store is consistent.
import { expect } from 'chai';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { Parser } from 'n3';
import { tempDir } from '../helpers/app.ts';
import { startChild, type Child } from '../helpers/child.ts';
import { DC } from '../../src/rdf/vocab.ts';
import { scan } from '../../src/store/embedded/layout.ts';
import { describeEmbedded } from '../helpers/engines.ts';

const CLIENTS = 16;
const IDS_PER_CLIENT = 12;

/** What we know about one graph: its last acknowledged state and a write still in flight. */
interface Expect {
  acked?: string | null;
  inflight?: string | null;
}

const idOf = (client: number, k: number) => `c${client}-${k}`;

/** Writes (and sometimes deletes) until stopped; each client's writes to an id are sequential. */
async function stream(child: Child, known: Map<string, Expect>, stop: { now: boolean; acked: number }, round: number): Promise<void> {
  await Promise.all(Array.from({ length: CLIENTS }, async (_, client) => {
    for (let seq = 0; !stop.now; seq++) {
      const id = idOf(client, seq % IDS_PER_CLIENT);
      const del = seq % 7 === 6;
      const value = del ? null : `r${round} c${client} #${seq} "quoted" \\ é\nline`;
      const state = known.get(id) ?? {};
      known.set(id, state);
      state.inflight = value;
      try {
        const res = await fetch(`${child.url}/test-graph/${id}`, del ? { method: 'DELETE' } : { method: 'PUT', body: value });
        await res.arrayBuffer();
        if (res.status >= 200 && res.status < 300) {
          state.acked = value;
          stop.acked++;
        }
        delete state.inflight;
      } catch {
        return; // the server died mid-request: this write stays in flight (not acknowledged)
      }
    }
  }));
}

async function titleOf(child: Child, id: string): Promise<{ title: string | null; triples: number }> {
  const res = await fetch(`${child.url}/test-graph/${id}`, { headers: { Accept: 'application/n-triples' } });
  if (res.status === 404) return { title: null, triples: 0 };
  expect(res.status).to.equal(200);
  const quads = new Parser({ format: 'N-Triples' }).parse(await res.text());
  return { title: quads.find((q) => q.predicate.equals(DC.title))?.object.value ?? '(no title)', triples: quads.length };
}

async function verify(child: Child, known: Map<string, Expect>): Promise<void> {
  const found = await Promise.all([...known.keys()].map((id) => titleOf(child, id)));
  for (const [i, [id, state]] of [...known].entries()) {
    const { title, triples } = found[i]!;
    const allowed = [state.acked ?? null, ...('inflight' in state ? [state.inflight ?? null] : [])];
    expect(allowed, `graph ${id} holds ${JSON.stringify(title)}`).to.include(title);
    expect(triples, `graph ${id}`).to.equal(title === null ? 0 : 3);
  }
  // Consistency: every test graph in the store is one we wrote, each complete (the
  // built-in ontology graphs are loaded at every start and are not counted).
  const query = `SELECT ?g (COUNT(*) AS ?n) WHERE { GRAPH ?g { ?s ?p ?o } FILTER(STRSTARTS(STR(?g), "http://durable.example/test-graph/")) } GROUP BY ?g`;
  const res = await fetch(`${child.url}/sparql?query=${encodeURIComponent(query)}`);
  const rows = ((await res.json()) as { results: { bindings: Array<{ g: { value: string }; n: { value: string } }> } }).results.bindings;
  const present = [...known].filter(([, s]) => s.acked || s.inflight).length;
  expect(rows.length).to.be.at.most(present).and.at.least([...known.values()].filter((s) => s.acked && !('inflight' in s)).length);
  for (const row of rows) expect(row.n.value, row.g.value).to.equal('3');
}

// Embedded engine only: the journal's durability; a remote store's durability is the store's own.
describeEmbedded('durability: SIGKILL during a stream of writes', function () {
  this.timeout(120_000);

  it('keeps every acknowledged write across two kills, with snapshots running', async () => {
    const dataDir = tempDir();
    const known = new Map<string, Expect>();
    const env = { SNAPSHOT_EVERY: '40' };
    for (let round = 0; round < 2; round++) {
      const child = await startChild(dataDir, env);
      if (round > 0) await verify(child, known);
      const stop = { now: false, acked: 0 };
      const writing = stream(child, known, stop, round);
      // Kill at a moment unrelated to any request: once enough writes are acknowledged.
      while (stop.acked < 120 + round * 37) await new Promise((r) => setTimeout(r, 5));
      child.process.kill('SIGKILL');
      expect(await child.exited).to.equal('SIGKILL');
      stop.now = true;
      await writing;
    }
    const child = await startChild(dataDir, env);
    await verify(child, known);
    // The restarted store takes writes and shuts down cleanly.
    await (await fetch(`${child.url}/test-graph/after`, { method: 'PUT', body: 'after' })).arrayBuffer();
    expect((await titleOf(child, 'after')).title).to.equal('after');
    child.process.kill('SIGTERM');
    expect(await child.exited).to.equal('0');
    expect(scan(path.join(dataDir, 'store')).snapshots, 'snapshots were taken').to.have.length.greaterThan(0);
    rmSync(dataDir, { recursive: true, force: true });
  });
});
