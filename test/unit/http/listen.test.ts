// Clients that trickle their headers or body are answered 408 within the configured limits
// (REQUEST_TIMEOUT_MS, HEADERS_TIMEOUT_MS), while other clients are served meanwhile.
import { expect } from 'chai';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createHttpServer, serverTimeouts } from '../../../src/http/listen.ts';
import { loadConfig } from '../../../src/config.ts';

/** Writes `head` then one byte of `drip` every `everyMs`; resolves with what the server sent and when. */
function trickle(port: number, head: string, drip: string, everyMs: number): Promise<{ answer: string; ms: number }> {
  const started = Date.now();
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    let answer = '';
    let i = 0;
    const timer = setInterval(() => { if (i < drip.length && !socket.destroyed) socket.write(drip[i++]!); }, everyMs);
    socket.on('data', (d) => { answer += d.toString(); });
    socket.on('error', () => undefined);
    socket.on('close', () => { clearInterval(timer); resolve({ answer, ms: Date.now() - started }); });
    socket.write(head);
  });
}

describe('HTTP time limits', function () {
  this.timeout(20_000);
  let server: Server;
  let port: number;

  before(async () => {
    const config = loadConfig([], { REQUEST_TIMEOUT_MS: '2000', HEADERS_TIMEOUT_MS: '1000' });
    server = createHttpServer(config, (req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(200, { 'Content-Type': 'text/plain' }).end('ok'));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });

  after(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it('defaults to 300 s for a request and 60 s for its headers', () => {
    const config = loadConfig([], {});
    expect(serverTimeouts(config)).to.include({ requestTimeout: 300_000, headersTimeout: 60_000 });
  });

  it('keeps the headers limit within the request limit', () => {
    expect(serverTimeouts({ requestTimeoutMs: 5000, headersTimeoutMs: 60_000 }).headersTimeout).to.equal(5000);
    expect(serverTimeouts({ requestTimeoutMs: 0, headersTimeoutMs: 60_000 }).headersTimeout).to.equal(60_000);
  });

  it('answers 408 to headers sent one byte at a time, and serves others meanwhile', async () => {
    const slow = trickle(port, 'GET / HTTP/1.1\r\n', 'Host: 127.0.0.1\r\nX-Slow: ' + 'a'.repeat(100), 200);
    await new Promise((r) => setTimeout(r, 300));
    const res = await fetch(`http://127.0.0.1:${port}/`);
    expect(res.status).to.equal(200);
    expect(await res.text()).to.equal('ok');
    const { answer, ms } = await slow;
    expect(answer).to.match(/^HTTP\/1\.1 408 /);
    expect(ms).to.be.within(900, 4000);
  });

  it('answers 408 to a body sent one byte at a time', async () => {
    const head = 'POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\nContent-Length: 100\r\n\r\n';
    const { answer, ms } = await trickle(port, head, 'b'.repeat(100), 200);
    expect(answer).to.match(/^HTTP\/1\.1 408 /);
    expect(ms).to.be.within(1900, 5000);
  });
});
