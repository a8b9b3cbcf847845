import { expect } from 'chai';
import { startApp, type TestApp } from '../helpers/app.ts';
import { lines } from '../helpers/datasets.ts';
import { numberLiteral, writeEntries, type WritePlan } from '../../src/datasets/datasets.ts';
import { ensureFeature } from '../../src/features/features.ts';

describe('an interrupted dataset write', () => {
  let app: TestApp;
  before(async () => { app = await startApp(); });
  after(async () => { await app.close(); });

  it('leaves nothing visible, and a re-run completes it with only its own entries', async () => {
    const feature = await ensureFeature(app.deps, { title: 'x', type: 'numeric', source: app.url + '/algorithm/test' });
    const dataset = app.url + '/dataset/77';
    const plan = (signal?: AbortSignal, progress?: () => void): WritePlan => ({
      dataset, features: [feature], warnings: [], meta: { title: 'partial' }, chunkSize: 1, signal, progress,
      entries: [1, 2, 3].map((i) => ({ compound: `http://example.org/compound/${i}`, values: [numberLiteral(i)] })),
    });
    const abort = new AbortController();
    const failed = await writeEntries(app.deps, plan(abort.signal, () => abort.abort())).then(() => false, () => true);
    expect(failed).to.equal(true);
    expect((await fetch(dataset)).status).to.equal(404);
    expect(await lines(app.url + '/dataset')).to.not.include(dataset);

    await writeEntries(app.deps, plan());
    const csv = await lines(dataset, 'text/csv');
    expect(csv.slice(1).map((l) => l.split(',').pop())).to.deep.equal(['1', '2', '3']);
  });

  it('links that go with the entries (a job\'s new dataset) leave nothing visible either until the last commit', async () => {
    const feature = await ensureFeature(app.deps, { title: 'y', type: 'numeric', source: app.url + '/algorithm/test' });
    const plan = (dataset: string, signal?: AbortSignal, progress?: () => void): WritePlan => ({
      dataset, features: [feature], warnings: [], meta: { title: 'linked' }, chunkSize: 1, signal, progress, linking: 'withEntries',
      entries: [1, 2, 3].map((i) => ({ compound: `http://example.org/compound/${i}`, values: [numberLiteral(i)] })),
    });
    const stopped = app.url + '/dataset/78';
    const abort = new AbortController();
    let chunks = 0;
    const failed = await writeEntries(app.deps, plan(stopped, abort.signal, () => {
      if (++chunks === 2) abort.abort();
    })).then(() => false, () => true);
    expect(failed).to.equal(true);
    expect((await fetch(stopped)).status).to.equal(404);
    expect(await lines(app.url + '/dataset')).to.not.include(stopped);

    const whole = app.url + '/dataset/79';
    await writeEntries(app.deps, plan(whole));
    const csv = await lines(whole, 'text/csv');
    expect(csv.slice(1).map((l) => l.split(',').pop())).to.deep.equal(['1', '2', '3']);
  });
});
