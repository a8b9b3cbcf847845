// A minimal HTTP client over node:http with its own keep-alive pool, so that the soak
// holds exactly the number of connections it asks for.
import http from 'node:http';

export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export function pool(connections: number): http.Agent {
  return new http.Agent({ keepAlive: true, maxSockets: connections, maxFreeSockets: connections });
}

export function request(agent: http.Agent, url: string, options: { method?: string; headers?: Record<string, string>; body?: string | Buffer; timeoutMs?: number } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { agent, method: options.method ?? 'GET', headers: options.headers, timeout: options.timeoutMs ?? 120_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error('no answer in time')));
    req.on('error', reject);
    req.end(options.body);
  });
}

/** Lines of a text/uri-list answer. */
export const uris = (body: string): string[] => body.split(/\r?\n/).map((l) => l.trim()).filter((l) => l && !l.startsWith('#'));
