import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { startApp, type TestApp } from '../helpers/app.ts';
import { sharedData } from '../helpers/data.ts';
import { loadDataset } from '../../src/datasets/datasetLoad.ts';
import { publishDataset } from '../../src/datasets/datasetRemote.ts';

const upload = async (app: TestApp, body: string, type: string): Promise<string> => {
  const res = await fetch(app.url + '/dataset', { method: 'POST', headers: { 'Content-Type': type, Accept: 'text/uri-list' }, body });
  expect(res.status, await res.clone().text()).to.equal(200);
  return (await res.text()).trim();
};

/** A port nothing listens on: bound, then closed. */
async function deadPort(): Promise<number> {
  const s: Server = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return port;
}

describe('datasets on another service (remote dataset_uri, dataset_service)', () => {
  let a: TestApp;
  let b: TestApp;
  before(async () => { [a, b] = await Promise.all([startApp(), startApp()]); });
  after(async () => { await Promise.all([a.close(), b.close()]); });

  it('loads a dataset of a second instance over HTTP like a local one', async () => {
    const remote = await upload(b, readFileSync(sharedData('ambit', 'import_dataset2.rdf'), 'utf8'), 'application/rdf+xml');
    const local = await loadDataset(b.deps, remote);
    const fetched = await loadDataset(a.deps, remote);
    expect(fetched.compounds).to.deep.equal(local.compounds);
    expect(fetched.features.map((f) => f.uri)).to.deep.equal(local.features.map((f) => f.uri));
    expect(fetched.values).to.deep.equal(local.values);
    expect(fetched.values[0]).to.deep.equal(['XXXXX', '3.14']);
  });

  it('restricts a remote dataset by feature_uris[] in its query string', async () => {
    const remote = await upload(b, readFileSync(sharedData('ambit', 'import_dataset2.rdf'), 'utf8'), 'application/rdf+xml');
    const all = await loadDataset(a.deps, remote);
    const one = await loadDataset(a.deps, `${remote}?feature_uris[]=${encodeURIComponent(all.features[1]!.uri)}`);
    expect(one.features.map((f) => f.uri)).to.deep.equal([all.features[1]!.uri]);
  });

  it('publishes a local dataset to another dataset service', async () => {
    const local = await upload(a, 'http://example.org/compound/1\nhttp://example.org/compound/2\n', 'text/uri-list');
    const remote = await publishDataset(a.deps, local, b.url + '/dataset');
    expect(remote.startsWith(b.url + '/dataset/')).to.equal(true);
    const res = await fetch(remote, { headers: { Accept: 'text/uri-list' } });
    expect((await res.text()).trim().split(/\r?\n/)).to.deep.equal(['http://example.org/compound/1', 'http://example.org/compound/2']);
  });

  const failures: Array<[string, () => Promise<string>, number, RegExp]> = [
    ['not a URI', async () => 'no uri', 400, /InvalidIRI/],
    ['a local dataset that does not exist', async () => a.url + '/dataset/999', 404, /NotFound/],
    ['a remote dataset answering 404', async () => b.url + '/dataset/999', 502, /BadGateway/],
    ['an unreachable port', async () => `http://127.0.0.1:${await deadPort()}/dataset/1`, 502, /BadGateway/],
  ];
  for (const [what, uri, status, code] of failures) {
    it(`dataset_uri ${what}: ${status}`, async () => {
      const err = await loadDataset(a.deps, await uri()).then(() => undefined, (e: { status: number; code: { value: string }; causes: unknown[] }) => e);
      expect(err?.status).to.equal(status);
      expect(err?.code.value).to.match(code);
      if (status === 502) expect(err?.causes).to.have.length(1);
    });
  }
});
