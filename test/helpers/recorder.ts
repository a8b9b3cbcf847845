// A loopback HTTP server that records every request reaching it (method, URL, headers, body)
// and answers with a handler the test chooses: the target of SSRF and token tests.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export interface Recorder {
  url: string;
  seen: Seen[];
  /** Everything it received, as one text to search for a token. */
  text: () => string;
  close: () => Promise<void>;
}

export type Answer = (req: Seen, res: ServerResponse) => void;

const notFound: Answer = (_req, res) => res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not here');

export async function startRecorder(answer: Answer = notFound): Promise<Recorder> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => { body += c; });
    req.on('end', () => {
      const one = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
      seen.push(one);
      answer(one, res);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    text: () => JSON.stringify(seen),
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
