// The engine keeps a queued job's kind, parameters and owner in the task graph so it can
// run after a restart; researchers querying /sparql must never see them.
import { expect } from 'chai';
import { startApp, type TestApp } from '../helpers/app.ts';
import { defineTestJobs } from '../helpers/testJobs.ts';
import { waitForStatus } from '../helpers/tasks.ts';
import { JOB, OT } from '../../src/rdf/vocab.ts';
import { describeEmbedded } from '../helpers/engines.ts';

async function select(app: TestApp, query: string): Promise<Array<Record<string, { value: string }>>> {
  const res = await fetch(`${app.url}/sparql?query=${encodeURIComponent(query)}`);
  expect(res.status).to.equal(200);
  return ((await res.json()) as { results: { bindings: Array<Record<string, { value: string }>> } }).results.bindings;
}

// Embedded engine only: its read replica leaves the job fields out; a remote store answers
// /sparql itself, and they are visible there (docs/engines.md, limits).
describeEmbedded('SPARQL endpoint hides internal task fields', () => {
  let app: TestApp;
  before(async () => {
    app = await startApp();
    defineTestJobs(app.deps.tasks);
  });
  after(async () => { await app.close(); });

  it('shows a task but none of its private job fields, before and after the replica loaded', async () => {
    const early = await app.deps.tasks.submit('test-noop', { result: 'http://example.org/r/1' }, { title: 'early', creator: app.url });
    await waitForStatus(app.deps.tasks, early.uri, ['Completed']);
    // The first query loads the replica from the store: `early` is swept at load.
    const privateQuery = `SELECT ?s ?p WHERE { ?s ?p ?o FILTER(STRSTARTS(STR(?p), "${JOB.ns}")) }`;
    expect(await select(app, privateQuery)).to.deep.equal([]);
    // `late` reaches the replica as applied records: filtered as they arrive.
    const late = await app.deps.tasks.submit('test-noop', { result: 'http://example.org/r/2' }, { title: 'late', creator: app.url });
    await waitForStatus(app.deps.tasks, late.uri, ['Completed']);
    expect(await select(app, privateQuery)).to.deep.equal([]);
    const statuses = await select(app, `SELECT ?t ?s WHERE { ?t <${OT.hasStatus.value}> ?s }`);
    expect(statuses.map((b) => b.t!.value)).to.include.members([early.uri, late.uri]);
    // The engine itself still has them: the store is unchanged, only the public view filters.
    expect((await app.deps.store.graph(early.uri)).some((q) => q.predicate.value.startsWith(JOB.ns))).to.equal(true);
  });
});
