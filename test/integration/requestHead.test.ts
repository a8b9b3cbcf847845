// A request line or header block over the parser's limit is answered with a short report,
// 414 or 431, through the production server (src/http/listen.ts createHttpServer), and the
// client reads the answer instead of a reset; the server serves the next request as before.
import net from 'node:net';
import { maxHeaderSize, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { startApp, type TestApp } from '../helpers/app.ts';
import { createHttpServer } from '../../src/http/listen.ts';
import { createApp } from '../../src/app.ts';

/** Writes `head` in one write (or in pieces of `piece` bytes) and answers what the server sent before it closed. */
function send(port: number, head: string, piece?: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (d) => { answer += d.toString('latin1'); });
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(answer));
    if (!piece) socket.write(head);
    else for (let i = 0; i < head.length; i += piece) socket.write(head.slice(i, i + piece));
  });
}

describe('request heads over the limit', function () {
  this.timeout(60_000);
  let app: TestApp;
  let server: Server;
  let url: string;
  let port: number;

  before(async () => {
    app = await startApp();
    server = createHttpServer(app.deps.config, createApp(app.deps).callback());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
    url = `http://127.0.0.1:${port}`;
  });
  after(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    await app?.close();
  });

  it('a 1 MB query string is 414 with a report, read by the client', async () => {
    const res = await fetch(`${url}/compound?q=${'a'.repeat(1 << 20)}`);
    expect(res.status).to.equal(414);
    expect(res.headers.get('content-type')).to.equal('text/plain; charset=utf-8');
    expect(res.headers.get('x-content-type-options')).to.equal('nosniff');
    expect(res.headers.get('connection')).to.equal('close');
    expect(await res.text()).to.equal(`414 URITooLong: the request line is longer than the limit of ${maxHeaderSize} bytes\nactor: ${app.url}/\n  Send long parameters in a POST body (application/x-www-form-urlencoded) instead.\n`);
  });

  it('a header block over the limit is 431 with a report', async () => {
    const big = await fetch(`${url}/compound`, { headers: { 'X-Big': 'b'.repeat(64 * 1024) } });
    expect(big.status).to.equal(431);
    expect(await big.text()).to.match(/^431 HeaderFieldsTooLarge: the request line and header fields are longer than the limit of \d+ bytes\n/);
    const many = await send(port, `GET /compound HTTP/1.1\r\nHost: x\r\n${Array.from({ length: 3000 }, (_, i) => `X-H${i}: v\r\n`).join('')}\r\n`);
    expect(many).to.match(/^HTTP\/1\.1 431 Request Header Fields Too Large\r\n/);
    expect(many).to.match(/\r\n\r\n431 HeaderFieldsTooLarge: /);
  });

  it('answers the raw request, whole, then closes; further bytes are dropped, not answered twice', async () => {
    const answer = await send(port, `GET /?${'a'.repeat(1 << 20)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    const [head, body] = answer.split('\r\n\r\n');
    expect(head).to.match(/^HTTP\/1\.1 414 URI Too Long\r\n/);
    expect(Buffer.byteLength(body!)).to.equal(Number(/Content-Length: (\d+)/.exec(head!)![1]));
    expect(answer.match(/HTTP\/1\.1/g)).to.have.length(1);
    // A long line sent in small pieces is refused within the limit too (431 when the piece
    // that passes the limit no longer shows where the request began).
    const pieces = await send(port, `GET /?${'a'.repeat(64 * 1024)} HTTP/1.1\r\nHost: x\r\n\r\n`, 4096);
    expect(pieces).to.match(/^HTTP\/1\.1 (414 URI Too Long|431 Request Header Fields Too Large)\r\n/);
  });

  it('a line within the limit is served, and the server serves on after refusals', async () => {
    const res = await fetch(`${url}/compound?x=${'a'.repeat(8 * 1024)}`, { headers: { Accept: 'text/uri-list' } });
    expect(res.status).to.equal(200);
    await res.text();
    expect(await send(port, 'GET / HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n')).to.match(/^HTTP\/1\.1 400 Bad Request\r\n[\s\S]*\r\n\r\n400 BadRequest: the request is not valid HTTP\/1\.1\n/);
    expect((await fetch(`${url}/`)).status).to.equal(200);
  });
});
