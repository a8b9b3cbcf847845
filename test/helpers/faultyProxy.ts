// An HTTP proxy in front of a SPARQL store that the fault tests switch between passing
// requests on, never answering (a slow store), answering 500 (a failing one) and cutting
// every connection (an unreachable one). It also counts the update and Graph Store
// requests it passes.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { UNBOUND } from '../../src/store/sparql/quirks.ts';

/**
 * 'holes': SELECT answers lose their ?o bindings, as Virtuoso 7.2 answered rows while the
 * graph read was being rewritten, and the CONSTRUCTs of literals as written (quirks.ts
 * lexicalConstruct) answer the marker that query sends for an unbound ?o; `holes` answers
 * are spoilt, then queries pass again.
 */
export type ProxyMode = 'pass' | 'hang' | 'error' | 'down' | 'holes';

export interface FaultyProxy {
  /** The proxied endpoint: same path as the target's. */
  url: string;
  mode: ProxyMode;
  /** In mode 'holes': how many more SELECT answers lose their ?o bindings. */
  holes: number;
  /** Update requests (form field `update`) passed on to the store. */
  updates: string[];
  /** Graph Store requests (an N-Triples body) passed on: the graph each named. */
  graphWrites: string[];
  close: () => Promise<void>;
}

async function bodyOf(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

export async function startFaultyProxy(target: string): Promise<FaultyProxy> {
  const sockets = new Set<Socket>();
  const proxy: FaultyProxy = { url: '', mode: 'pass', holes: 0, updates: [], graphWrites: [], close: async () => undefined };
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    if (proxy.mode === 'down') return req.socket.destroy();
    if (proxy.mode === 'hang') return;
    const body = await bodyOf(req);
    if (proxy.mode === 'error') return res.writeHead(500, { 'content-type': 'text/plain' }).end('Virtuoso 42000 Error SR000: simulated failure');
    const update = new URLSearchParams(body.toString('utf8')).get('update');
    if (update !== null) proxy.updates.push(update);
    if (/n-triples/.test(req.headers['content-type'] ?? '')) proxy.graphWrites.push(new URL(req.url ?? '/', target).searchParams.get('graph') ?? '');
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !['host', 'connection', 'content-length'].includes(k))) as Record<string, string>;
    const answer = await fetch(new URL(req.url ?? '/', target), { method: req.method, headers, body: req.method === 'POST' ? new Uint8Array(body) : undefined });
    let out = Buffer.from(await answer.arrayBuffer());
    const query = new URLSearchParams(body.toString('utf8')).get('query') ?? '';
    if (proxy.mode === 'holes' && proxy.holes > 0 && query.includes(UNBOUND) && /n-triples|text\/plain/.test(answer.headers.get('content-type') ?? '')) {
      const lines = out.toString('utf8').split('\n').filter((l) => l.trim() !== '');
      if (lines.length > 0) {
        proxy.holes--;
        out = Buffer.from(lines.map((l) => l.replace(/^(\S+\s+<[^>]*>\s+).*$/, `$1<${UNBOUND}> .`)).join('\n') + '\n');
      }
    } else if (proxy.mode === 'holes' && proxy.holes > 0 && update === null && /json/.test(answer.headers.get('content-type') ?? '')) {
      const json = JSON.parse(out.toString('utf8')) as { results?: { bindings: Array<Record<string, unknown>> } };
      if (json.results?.bindings.some((b) => 'o' in b)) {
        proxy.holes--;
        for (const b of json.results.bindings) delete b.o;
        out = Buffer.from(JSON.stringify(json));
      }
    }
    res.writeHead(answer.status, Object.fromEntries([...answer.headers].filter(([k]) => !['content-length', 'transfer-encoding', 'connection', 'content-encoding'].includes(k))));
    res.end(out);
  };
  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy());
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.once('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  proxy.url = `http://127.0.0.1:${port}${new URL(target).pathname}`;
  proxy.close = async () => {
    for (const s of sockets) s.destroy();
    await new Promise((r) => server.close(r));
  };
  return proxy;
}
