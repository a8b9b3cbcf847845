// Error reports (SPEC §7.2): one catch point, text/plain on request, no stack traces unless
// debug is on, and a plain-text answer even when the report itself cannot be produced.
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import Koa from 'koa';
import { expect } from 'chai';
import { errorMiddleware } from '../../src/http/errorMiddleware.ts';
import { HttpError, NotFound } from '../../src/errors.ts';
import { ERR } from '../../src/rdf/vocab.ts';
import { parseRdfXmlStrict } from '../helpers/rdf.ts';

async function serve(debug: boolean, fail: () => never): Promise<{ url: string; server: Server; logged: unknown[] }> {
  const logged: unknown[] = [];
  const app = new Koa();
  app.silent = true;
  app.use(errorMiddleware({ actor: 'http://svc.org/', debug, log: (m) => logged.push(m) }));
  app.use(() => fail());
  const server = app.listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, server, logged };
}

describe('error reports', () => {
  const servers: Server[] = [];
  after(() => servers.forEach((s) => s.close()));
  const start = async (debug: boolean, fail: () => never) => {
    const s = await serve(debug, fail);
    servers.push(s.server);
    return s;
  };

  it('an unexpected error is a 500 report without a stack trace', async () => {
    const { url, logged } = await start(false, () => { throw new TypeError('cannot read x of undefined'); });
    const res = await fetch(url, { headers: { Accept: 'text/plain' } });
    expect(res.status).to.equal(500);
    const text = await res.text();
    expect(text).to.match(/^500 InternalServerError: internal error\nactor: http:\/\/svc.org\/\n {2}cannot read x of undefined\n$/);
    expect(text).not.to.match(/\bat .*\.ts:\d+/);
    expect(logged).to.have.length(1);
  });

  it('with debug on, the report carries the stack trace', async () => {
    const { url } = await start(true, () => { throw new TypeError('cannot read x of undefined'); });
    const res = await fetch(url, { headers: { Accept: 'text/plain' } });
    expect(await res.text()).to.match(/TypeError: cannot read x of undefined\n\s+at /);
  });

  it('is RDF/XML by default with code, actor, message, details and status', async () => {
    const { url } = await start(false, () => { throw new NotFound('no such task', { details: 'ask GET /task' }); });
    const res = await fetch(url);
    expect(res.status).to.equal(404);
    const quads = await parseRdfXmlStrict(await res.text());
    const value = (local: string) => quads.find((q) => q.predicate.value.endsWith('#' + local))?.object.value;
    expect(value('errorCode')).to.equal(ERR.NotFound.value);
    expect(value('actor')).to.equal('http://svc.org/');
    expect(value('message')).to.equal('no such task');
    expect(value('errorDetails')).to.equal('ask GET /task');
    expect(value('statusCode')).to.equal('404');
  });

  it('answers plain text when the report cannot be produced', async () => {
    const broken = new HttpError(400, ERR.BadRequest, 'bad thing', { causes: [{ status: 400, code: ERR.BadRequest.value, message: 'x', causes: null as never }] });
    const { url, logged } = await start(false, () => { throw broken; });
    const res = await fetch(url);
    expect(res.status).to.equal(400);
    expect(res.headers.get('content-type')).to.match(/^text\/plain/);
    expect(await res.text()).to.match(/^400 Error: bad thing\nactor: http:\/\/svc.org\/\n$/);
    expect(logged.length).to.be.greaterThan(0);
  });
});
