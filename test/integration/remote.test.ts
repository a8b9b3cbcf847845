// The 502 helper (SPEC §7.2 rules 1-3) against a second instance of our own app, raw servers
// that redirect, echo or hang, and a port nobody listens on.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { expect } from 'chai';
import { startApp, type TestApp } from '../helpers/app.ts';
import { loadConfig } from '../../src/config.ts';
import { fetchRemote } from '../../src/http/remote.ts';
import { BadGateway, HttpError } from '../../src/errors.ts';
import { errorMiddleware } from '../../src/http/errorMiddleware.ts';
import { handle } from '../../src/http/send.ts';
import { rdfReply } from '../../src/http/reply.ts';
import { ERR, OT } from '../../src/rdf/vocab.ts';
import { parseRdfXmlStrict } from '../helpers/rdf.ts';

/** The loopback peers of this file: listed, so the outbound policy lets the client call them. */
const origins: string[] = [];
const net = loadConfig([], {}, { baseUrl: 'http://127.0.0.1:1', remoteOrigins: origins, tokenOrigins: origins });

async function listen(handler: Parameters<typeof createServer>[1]): Promise<{ server: Server; url: string }> {
  const server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  origins.push(url);
  return { server, url };
}

async function failure(p: Promise<unknown>): Promise<HttpError> {
  const err = await p.then(() => undefined, (e: unknown) => e);
  expect(err).to.be.instanceOf(HttpError);
  return err as HttpError;
}

describe('fetchRemote', () => {
  let remote: TestApp;
  let closedPort: string;
  const raw: Server[] = [];
  before(async () => {
    remote = await startApp();
    origins.push(remote.url);
    const { server, url } = await listen(() => undefined);
    closedPort = url;
    server.close();
  });
  after(async () => {
    await remote.close();
    for (const s of raw) { s.closeAllConnections(); s.close(); }
  });

  for (const accept of ['application/rdf+xml', 'text/turtle', 'application/n-triples', 'application/ld+json', 'text/n3', 'text/plain']) {
    it(`a remote 404 report in ${accept} becomes the cause of a 502`, async () => {
      const err = await failure(fetchRemote(net, remote.url + '/ontology/none', { accept }));
      expect(err).to.be.instanceOf(BadGateway);
      expect(err.status).to.equal(502);
      expect(err.code.value).to.equal(ERR.BadGateway.value);
      expect(err.causes).to.have.length(1);
      const [cause] = err.causes;
      expect(cause).to.include({ status: 404, code: ERR.NotFound.value, message: `no ontology ${remote.url}/ontology/none` });
      expect(cause!.actor).to.equal(accept === 'text/plain' ? remote.url + '/ontology/none' : remote.url + '/');
    });
  }

  it('keeps nested causes of a remote report', async () => {
    const { server, url } = await listen((_req, res) => {
      res.writeHead(502, { 'Content-Type': 'text/turtle' }).end(`@prefix ot: <${OT.ns}> .
        _:r a ot:ErrorReport ; ot:errorCode <${ERR.BadGateway.value}> ; ot:message "upstream" ; ot:actor <http://a.org/> ; ot:errorCause _:c .
        _:c a ot:ErrorReport ; ot:errorCode <${ERR.PredictionFeatureNotInDataset.value}> ; ot:statusCode 400 ; ot:message "no such feature" ; ot:errorDetails "hint" .`);
    });
    raw.push(server);
    const err = await failure(fetchRemote(net, url + '/model/1'));
    expect(err.causes[0]).to.include({ status: 502, message: 'upstream', actor: 'http://a.org/' });
    expect(err.causes[0]!.causes[0]).to.include({ status: 400, code: ERR.PredictionFeatureNotInDataset.value, message: 'no such feature', details: 'hint' });
  });

  it('a remote error in plain prose keeps its text', async () => {
    const { server, url } = await listen((_req, res) => res.writeHead(500, { 'Content-Type': 'text/html' }).end('<h1>Oops</h1>\nstack...'));
    raw.push(server);
    const err = await failure(fetchRemote(net, url));
    expect(err.causes[0]).to.include({ status: 500, code: ERR.InternalServerError.value, message: '<h1>Oops</h1>' });
  });

  it('connection refused is a 502 whose cause says so', async () => {
    const err = await failure(fetchRemote(net, closedPort + '/dataset/1'));
    expect(err.status).to.equal(502);
    expect(err.causes[0]).to.include({ code: ERR.RemoteServiceError.value, actor: closedPort + '/dataset/1' });
    expect(err.causes[0]!.message).to.match(/connection refused/);
  });

  it('an unknown host is a 502 whose cause names the lookup failure', async () => {
    const err = await failure(fetchRemote(net, 'http://no-such-host.invalid/dataset/1', { timeoutMs: 5000 }));
    expect(err.status).to.equal(502);
    expect(err.causes[0]!.message).to.match(/unknown host|lookup|no answer/);
  });

  it('a service that does not answer in time is a 502 with a time-out cause', async () => {
    const { server, url } = await listen(() => undefined);
    raw.push(server);
    const err = await failure(fetchRemote(net, url, { timeoutMs: 200 }));
    expect(err.status).to.equal(502);
    expect(err.causes[0]).to.include({ status: 504, code: ERR.GatewayTimeout.value });
    expect(err.causes[0]!.message).to.match(/no answer within 200 ms/);
  });

  it('follows redirects and passes subjectid as header and form parameter', async () => {
    let seen: { headers: Record<string, unknown>; body: string } | undefined;
    const { server, url } = await listen((req, res) => {
      if (req.url === '/old') { res.writeHead(307, { Location: '/new' }).end(); return; }
      let body = '';
      req.on('data', (c) => { body += c; });
      req.on('end', () => {
        seen = { headers: req.headers, body };
        res.writeHead(200, { 'Content-Type': 'text/uri-list' }).end('http://x.org/dataset/9\n');
      });
    });
    raw.push(server);
    const res = await fetchRemote(net, url + '/old', { subjectid: 'token-1', body: new URLSearchParams({ dataset_uri: 'http://x.org/d?a=1&b=2' }) });
    expect(res.status).to.equal(200);
    expect(res.url).to.equal(url + '/new');
    expect(res.body.toString()).to.equal('http://x.org/dataset/9\n');
    expect(seen?.headers.subjectid).to.equal('token-1');
    const form = new URLSearchParams(seen?.body);
    expect(form.get('subjectid')).to.equal('token-1');
    expect(form.get('dataset_uri')).to.equal('http://x.org/d?a=1&b=2');
  });

  it('an invalid URI is the client\'s fault: 400 InvalidIRI', async () => {
    const err = await failure(fetchRemote(net, 'ftp://x.org/a'));
    expect(err.status).to.equal(400);
    expect(err.code.value).to.equal(ERR.InvalidIRI.value);
  });

  it('the 502 is answered as a report with the remote one as ot:errorCause', async () => {
    const koa = new Koa();
    koa.silent = true;
    koa.use(errorMiddleware({ actor: 'http://local.org/', debug: false }));
    koa.use(handle(async () => {
      await fetchRemote(net, remote.url + '/ontology/none');
      return rdfReply([]);
    }));
    const server = koa.listen(0, '127.0.0.1');
    raw.push(server);
    await new Promise((r) => server.once('listening', r));
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    expect(res.status).to.equal(502);
    const quads = await parseRdfXmlStrict(await res.text());
    const causes = quads.filter((q) => q.predicate.equals(OT.errorCause));
    expect(causes).to.have.length(1);
    const codes = quads.filter((q) => q.predicate.equals(OT.errorCode)).map((q) => q.object.value);
    expect(codes).to.have.members([ERR.BadGateway.value, ERR.NotFound.value]);
    expect(quads.some((q) => q.predicate.equals(OT.actor) && q.object.value === remote.url + '/')).to.equal(true);
  });
});
