// A load generator in its own process for POSTs whose bodies all differ (wrk sends one body):
// node --import tsx bench/lib/postLoad.ts URL CONTENT_TYPE BODIES_JSON_FILE CONNECTIONS
// posts every body once, CONNECTIONS at a time over kept-alive connections, and prints one
// JSON line: { requests, seconds, statuses: { "200": n, ... } }.
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';

const [url, type, file, connections] = process.argv.slice(2);
const bodies = JSON.parse(readFileSync(file!, 'utf8')) as string[];
const agent = new Agent({ keepAlive: true, maxSockets: Number(connections) });
const statuses: Record<number, number> = {};

function post(body: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(url!, { method: 'POST', agent, headers: { 'content-type': type, accept: 'text/uri-list', 'content-length': Buffer.byteLength(body) } }, (res) => {
      res.resume();
      res.on('end', () => {
        statuses[res.statusCode!] = (statuses[res.statusCode!] ?? 0) + 1;
        resolve();
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

let next = 0;
const started = performance.now();
await Promise.all(Array.from({ length: Number(connections) }, async () => {
  while (next < bodies.length) await post(bodies[next++]!);
}));
const seconds = (performance.now() - started) / 1000;
agent.destroy();
console.log(JSON.stringify({ requests: bodies.length, seconds, statuses }));
