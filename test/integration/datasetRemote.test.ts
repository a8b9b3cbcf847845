import { expect } from 'chai';
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingHttpHeaders, type RequestListener } from 'node:http';
import { createServer, type Server } from 'node:net';
import { startApp, type TestApp } from '../helpers/app.ts';
import { sharedData } from '../helpers/data.ts';
import { loadDataset as loadRef } from '../../src/datasets/datasetLoad.ts';
import { fetchRemoteDataset, publishDataset } from '../../src/datasets/datasetRemote.ts';
import { readDatasetRef, tableOf } from '../../src/algorithms/datasetIO.ts';
import { BadGateway } from '../../src/errors.ts';
import { DC, ERR } from '../../src/rdf/vocab.ts';

/** A dataset_uri as a request sends it: read into a DatasetRef, then loaded. */
const loadDataset = async (app: TestApp, uri: string) => loadRef(app.deps, readDatasetRef(app.deps.config, uri));

const upload = async (app: TestApp, body: string, type: string): Promise<string> => {
  const res = await fetch(app.url + '/dataset', { method: 'POST', headers: { 'Content-Type': type, Accept: 'text/uri-list' }, body });
  expect(res.status, await res.clone().text()).to.equal(200);
  return (await res.text()).trim();
};

/**
 * The loopback peers of app `a` (app `b` and the raw servers): listed in its REMOTE_ORIGINS and
 * TOKEN_ORIGINS, as an operator lists the services it federates with.
 */
const peers: string[] = [];

/** A port nothing listens on: bound, then closed. */
async function deadPort(): Promise<number> {
  const s: Server = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  peers.push(`http://127.0.0.1:${port}`);
  return port;
}

/** A raw HTTP server on a free port; closed by `closeAll`. */
const raw: Server[] = [];
async function listen(handler: RequestListener): Promise<string> {
  const server = createHttpServer(handler);
  raw.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  peers.push(url);
  return url;
}

const failure = (p: Promise<unknown>): Promise<BadGateway> => p.then(() => expect.fail('expected a 502'), (e: unknown) => {
  expect(e).to.be.instanceOf(BadGateway);
  return e as BadGateway;
});

describe('datasets on another service (remote dataset_uri, dataset_service)', () => {
  let a: TestApp;
  let b: TestApp;
  before(async () => {
    [a, b] = await Promise.all([startApp({ remoteOrigins: peers, tokenOrigins: peers }), startApp()]);
    peers.push(b.url);
  });
  after(async () => {
    await Promise.all([a.close(), b.close()]);
    for (const s of raw) s.close();
  });

  it('loads a dataset of a second instance over HTTP like a local one', async () => {
    const remote = await upload(b, readFileSync(sharedData('ambit', 'import_dataset2.rdf'), 'utf8'), 'application/rdf+xml');
    const local = await loadDataset(b, remote);
    const fetched = await loadDataset(a, remote);
    expect(fetched.compounds).to.deep.equal(local.compounds);
    expect(fetched.features.map((f) => f.uri)).to.deep.equal(local.features.map((f) => f.uri));
    expect(fetched.values).to.deep.equal(local.values);
    expect(fetched.values[0]).to.deep.equal(['XXXXX', '3.14']);
  });

  it('restricts a remote dataset by feature_uris[] in its query string', async () => {
    const remote = await upload(b, readFileSync(sharedData('ambit', 'import_dataset2.rdf'), 'utf8'), 'application/rdf+xml');
    const all = await loadDataset(a, remote);
    const one = await loadDataset(a, `${remote}?feature_uris[]=${encodeURIComponent(all.features[1]!.uri)}`);
    expect(one.features.map((f) => f.uri)).to.deep.equal([all.features[1]!.uri]);
  });

  it('publishes a local dataset to another dataset service', async () => {
    const local = await upload(a, 'http://example.org/compound/1\nhttp://example.org/compound/2\n', 'text/uri-list');
    const remote = await publishDataset(a.deps, local, b.url + '/dataset');
    expect(remote.startsWith(b.url + '/dataset/')).to.equal(true);
    const res = await fetch(remote, { headers: { Accept: 'text/uri-list' } });
    expect((await res.text()).trim().split(/\r?\n/)).to.deep.equal(['http://example.org/compound/1', 'http://example.org/compound/2']);
  });

  it('asks for RDF/XML with the caller\'s subjectid as a header, and reads RDF/XML sent under another type', async () => {
    let seen: IncomingHttpHeaders | undefined;
    const url = await listen((req, res) => {
      seen = req.headers;
      res.writeHead(200, { 'Content-Type': 'text/html' }).end(`<?xml version="1.0"?>
        <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns:dc="${DC.ns}"><rdf:Description rdf:about="http://x.org/d"><dc:title>d</dc:title></rdf:Description></rdf:RDF>`);
    });
    const quads = await fetchRemoteDataset(a.deps, url + '/dataset/1', 'token-1');
    expect(quads.map((q) => [q.subject.value, q.predicate.value, q.object.value])).to.deep.equal([['http://x.org/d', DC.title.value, 'd']]);
    expect(seen).to.include({ accept: 'application/rdf+xml', subjectid: 'token-1' });
  });

  it('a remote dataset that is not readable RDF: 502 whose cause is RDFSyntaxError', async () => {
    const url = await listen((_req, res) => res.writeHead(200, { 'Content-Type': 'text/turtle' }).end('<a> <b'));
    const err = await failure(fetchRemoteDataset(a.deps, url + '/dataset/1'));
    expect(err.causes).to.have.length(1);
    expect(err.causes[0]).to.include({ status: 502, code: ERR.RDFSyntaxError.value, actor: url + '/dataset/1' });
  });

  it('reads the SMILES of a remote dataset\'s compounds from their service', async () => {
    const remote = (await upload(b, 'SMILES,a\nCCO,1\nc1ccccc1O,2\n', 'text/csv'));
    const table = await tableOf(a.deps, await loadDataset(a, remote));
    expect(table.compounds.every((c) => c.startsWith(b.url + '/compound/'))).to.equal(true);
    const answered = await Promise.all(table.compounds.map(async (c) => (await (await fetch(c, { headers: { Accept: 'chemical/x-daylight-smiles' } })).text()).trim()));
    expect(table.smiles).to.deep.equal(answered);
    expect(table.smiles.every((s) => s.length > 0)).to.equal(true);
  });

  it('publishes through the remote service\'s tasks (202, then 201 to a second task, then 200), passing subjectid on every request', async () => {
    const requests: string[] = [];
    const url = await listen((req, res) => {
      requests.push(`${req.method} ${req.url} ${String(req.headers.subjectid)}`);
      req.resume();
      req.on('end', () => {
        const base = `http://${req.headers.host}`;
        // This request is counted: the first poll of task 1 is running (202), the second done (201).
        const polls = requests.filter((r) => r.startsWith('GET /task/1 ')).length;
        if (req.method === 'POST') res.writeHead(202, { 'Content-Type': 'text/uri-list' }).end(`${base}/task/1\n`);
        else if (req.url === '/task/1' && polls < 2) res.writeHead(202, { 'Content-Type': 'text/uri-list' }).end(`${base}/task/1\n`);
        else if (req.url === '/task/1') res.writeHead(201, { 'Content-Type': 'text/uri-list' }).end(`${base}/task/2\n`);
        else res.writeHead(200, { 'Content-Type': 'text/uri-list' }).end(`${base}/dataset/7\n`);
      });
    });
    const local = await upload(a, 'http://example.org/compound/1\n', 'text/uri-list');
    expect(await publishDataset(a.deps, local, url + '/dataset', 'token-1')).to.equal(url + '/dataset/7');
    expect(requests).to.deep.equal(['POST /dataset token-1', 'GET /task/1 token-1', 'GET /task/1 token-1', 'GET /task/2 token-1']);
  });

  it('a remote task that fails: 502 with its report as the cause', async () => {
    const url = await listen((req, res) => {
      req.resume();
      req.on('end', () => {
        if (req.method === 'POST') res.writeHead(202, { 'Content-Type': 'text/uri-list' }).end(`http://${req.headers.host}/task/1\n`);
        else res.writeHead(500, { 'Content-Type': 'text/plain' }).end('500 InternalServerError: the disk is full\n');
      });
    });
    const local = await upload(a, 'http://example.org/compound/1\n', 'text/uri-list');
    const err = await failure(publishDataset(a.deps, local, url + '/dataset'));
    expect(err.causes).to.have.length(1);
    expect(err.causes[0]).to.include({ status: 500, code: ERR.InternalServerError.value, message: 'the disk is full' });
  });

  it('a dataset service that answers no dataset URI: 502 with one cause', async () => {
    const url = await listen((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(200, { 'Content-Type': 'text/plain' }).end('thank you'));
    });
    const local = await upload(a, 'http://example.org/compound/1\n', 'text/uri-list');
    const err = await failure(publishDataset(a.deps, local, url + '/dataset'));
    expect(err.causes).to.have.length(1);
    expect(err.causes[0]).to.include({ status: 200, message: 'thank you', actor: url + '/dataset' });
  });

  it('a dataset service whose task URI is not one: 502 with one cause', async () => {
    const url = await listen((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(202, { 'Content-Type': 'text/uri-list' }).end('queued, come back later\n'));
    });
    const local = await upload(a, 'http://example.org/compound/1\n', 'text/uri-list');
    const err = await failure(publishDataset(a.deps, local, url + '/dataset'));
    expect(err.causes).to.have.length(1);
  });

  // The cause says what went wrong with the remote dataset (SPEC §7.2 rule 1).
  const failures: Array<[string, () => Promise<string>, number, RegExp, RegExp?]> = [
    ['not a URI', async () => 'no uri', 400, /InvalidIRI/],
    ['a local dataset that does not exist', async () => a.url + '/dataset/999', 404, /NotFound/],
    ['a remote dataset answering 404', async () => b.url + '/dataset/999', 502, /BadGateway/, /dataset .*999 not found/],
    ['an unreachable port', async () => `http://127.0.0.1:${await deadPort()}/dataset/1`, 502, /BadGateway/, /ECONNREFUSED/],
  ];
  for (const [what, uri, status, code, cause] of failures) {
    it(`dataset_uri ${what}: ${status}`, async () => {
      const err = await loadDataset(a, await uri()).then(() => undefined, (e: { status: number; code: { value: string }; causes: Array<{ message: string }> }) => e);
      expect(err?.status).to.equal(status);
      expect(err?.code.value).to.match(code);
      if (cause) {
        expect(err?.causes).to.have.length(1);
        expect(err?.causes[0]!.message).to.match(cause);
      }
    });
  }
});
