// The remote store failing under a running service: unreachable, slow, answering errors.
// Requests answer 503 with a report naming the store and Retry-After, never a hang nor a
// 500 with a stack; a write is one update request, so a failed one leaves nothing behind;
// the service answers again as soon as the store does. The store (and, below, its Graph
// Store endpoint, where large additions go) sits behind a proxy the test switches between
// these states (test/helpers/faultyProxy.ts).
import { expect } from 'chai';
import { startApp, type TestApp } from '../../helpers/app.ts';
import { releaseVirtuoso, virtuosoFor } from '../../helpers/engines.ts';
import { startFaultyProxy, type FaultyProxy } from '../../helpers/faultyProxy.ts';
import { followTask } from '../../helpers/datasets.ts';

const FEATURE = (title: string) => `@prefix ot: <http://www.opentox.org/api/1.1#> .
@prefix dc: <http://purl.org/dc/elements/1.1/> .
<http://x.example/f> a ot:Feature, ot:NumericFeature ; dc:title "${title}" ; ot:units "mg/L" .`;

describe('remote store faults', function () {
  this.timeout(120_000);
  let proxy: FaultyProxy;
  let app: TestApp;
  before(async () => {
    proxy = await startFaultyProxy((await virtuosoFor('remote store faults')).endpoint);
    app = await startApp({ sparqlEndpoint: proxy.url, storeTimeoutMs: 1500 });
  });
  after(async () => {
    proxy.mode = 'pass';
    await app?.close();
    await proxy?.close();
    await releaseVirtuoso('remote store faults');
  });
  afterEach(() => {
    proxy.mode = 'pass';
    proxy.holes = 0;
  });

  const get = (path: string) => fetch(app.url + path, { headers: { Accept: 'text/plain' }, signal: AbortSignal.timeout(20_000) });
  const postFeature = (title: string) => fetch(app.url + '/feature', {
    method: 'POST', headers: { 'Content-Type': 'text/turtle', Accept: 'text/plain' }, body: FEATURE(title), signal: AbortSignal.timeout(20_000),
  });

  async function expectStoreReport(res: Response, what: RegExp): Promise<void> {
    expect(res.status).to.equal(503);
    expect(res.headers.get('content-type')).to.match(/^text\/plain/);
    expect(res.headers.get('retry-after')).to.match(/^\d+$/);
    const text = await res.text();
    expect(text).to.contain(`the SPARQL store at ${proxy.url}`);
    expect(text).to.match(what);
    expect(text).not.to.match(/\n\s+at .+\(.+:\d+:\d+\)/);
  }

  it('unreachable: 503 naming the store, then answers again when it is back', async () => {
    proxy.mode = 'down';
    await expectStoreReport(await get('/dataset'), /is unreachable/);
    await expectStoreReport(await get('/feature'), /is unreachable/);
    proxy.mode = 'pass';
    const res = await fetch(app.url + '/dataset', { headers: { Accept: 'text/uri-list' } });
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^text\/uri-list/);
  });

  it('slow: 503 once the store time limit has passed, not a hang', async () => {
    proxy.mode = 'hang';
    const started = Date.now();
    await expectStoreReport(await get('/model'), /did not answer within 1500 ms/);
    expect(Date.now() - started).to.be.lessThan(10_000);
  });

  it('answering 500: 503 naming the store and what it answered', async () => {
    proxy.mode = 'error';
    await expectStoreReport(await get('/feature'), /answered 500/);
  });

  it('a write is one update request; a failed one stores nothing and a retry works', async () => {
    const before = proxy.updates.length;
    const created = await postFeature('LC50 once');
    expect(created.status).to.equal(200);
    const uri = (await created.text()).trim();
    expect(proxy.updates.length - before).to.equal(1);

    // A replace is one request: the old graph is dropped and the new one inserted together.
    const put = proxy.updates.length;
    const replaced = await fetch(uri, { method: 'PUT', headers: { 'Content-Type': 'text/turtle' }, body: FEATURE('LC50 twice') });
    expect(replaced.status).to.equal(200);
    expect(proxy.updates.length - put).to.equal(1);
    expect(proxy.updates.at(-1)).to.match(/DROP SILENT GRAPH <[^>]+>[\s\S]*INSERT DATA/);

    proxy.mode = 'error';
    await expectStoreReport(await fetch(uri, { method: 'PUT', headers: { 'Content-Type': 'text/turtle', Accept: 'text/plain' }, body: FEATURE('LC50 lost') }), /answered 500/);
    proxy.mode = 'pass';
    const kept = await (await fetch(uri, { headers: { Accept: 'application/n-triples' } })).text();
    expect(kept).to.contain('"LC50 twice"').and.not.contain('"LC50 lost"');
  });

  it('rows with unbound variables: read again, and after three such answers 503, never a graph with holes', async () => {
    // Each feature is read for the first time here, so no cached representation answers.
    const [whole, holed] = await Promise.all(['LC50 whole', 'LC50 holed'].map(async (t) => (await (await postFeature(t)).text()).trim()));
    proxy.mode = 'holes';
    proxy.holes = 2;
    const again = await fetch(whole!, { headers: { Accept: 'application/n-triples' } });
    expect(again.status).to.equal(200);
    expect(await again.text()).to.contain('"LC50 whole"').and.contain('"mg/L"');
    expect(proxy.holes).to.equal(0);
    proxy.holes = 3;
    await expectStoreReport(await fetch(holed!, { headers: { Accept: 'text/plain' } }), /answered rows with unbound variables 3 times/);
  });
});

describe('remote store faults at the Graph Store endpoint', function () {
  this.timeout(120_000);
  let proxy: FaultyProxy;
  let app: TestApp;
  before(async () => {
    const virtuoso = await virtuosoFor('graph store faults');
    proxy = await startFaultyProxy(virtuoso.graphStore);
    app = await startApp({ sparqlEndpoint: virtuoso.endpoint, sparqlGraphStore: proxy.url, storeTimeoutMs: 1500 });
  });
  after(async () => {
    proxy.mode = 'pass';
    await app?.close();
    await proxy?.close();
    await releaseVirtuoso('graph store faults');
  });

  // 60 rows of 20 values: one addition of 1,260 triples to the dataset graph.
  const csv = ['SMILES,' + Array.from({ length: 20 }, (_, j) => `d${j}`).join(',')]
    .concat(Array.from({ length: 60 }, (_, i) => `${'C'.repeat(i + 1)}O,` + Array.from({ length: 20 }, (_, j) => String(i * 100 + j + 0.125)).join(',')))
    .join('\n') + '\n';
  const upload = async () => {
    const res = await fetch(app.url + '/dataset', { method: 'POST', headers: { 'Content-Type': 'text/csv', Accept: 'text/uri-list' }, body: csv });
    const text = (await res.text()).trim();
    // A small upload may be answered at once (SPEC §4.3), else through its task.
    return res.status === 202 ? followTask(text, 60_000) : { status: res.status, body: text };
  };

  it('an upload\'s entries go there; a store answering 500 there fails the upload with a report naming it and leaves no dataset, and the next upload is whole', async () => {
    proxy.mode = 'error';
    const failed = await upload();
    expect(failed.status).to.equal(503);
    expect(failed.body).to.contain(`the SPARQL store at ${proxy.url}`).and.match(/answered 500/);
    proxy.mode = 'pass';
    const before = proxy.graphWrites.length;
    const done = await upload();
    expect(done.status, done.body).to.equal(200);
    const dataset = done.body.trim();
    expect(proxy.graphWrites.slice(before)).to.include(dataset);
    const listed = (await (await fetch(app.url + '/dataset', { headers: { Accept: 'text/uri-list' } })).text()).trim().split(/\r?\n/);
    expect(listed, 'the failed upload left no dataset').to.deep.equal([dataset]);
    const rows = (await (await fetch(dataset, { headers: { Accept: 'text/csv' } })).text()).trim().split('\r\n'); // RFC 4180 lines
    expect(rows).to.have.length(61);
    expect(rows.slice(1).map((r) => r.split(',').at(-1)).sort((a, b) => Number(a) - Number(b))).to.deep.equal(Array.from({ length: 60 }, (_, i) => String(i * 100 + 19 + 0.125)));
  });
});
