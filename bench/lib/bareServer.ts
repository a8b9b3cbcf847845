// The baseline of every HTTP figure: a bare Koa app in its own process answering every
// request with the same bytes and media type as the service did. Started by bench/lib/
// processes.ts; prints "LISTENING <port>". argv: body file, media type.
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';

const [file, type] = process.argv.slice(2);
if (file === undefined || type === undefined) throw new Error('usage: bareServer.ts <body file> <media type>');
const body = readFileSync(file);
const app = new Koa();
app.use((ctx) => {
  ctx.type = type;
  ctx.body = body;
});
const server = app.listen(0, '127.0.0.1', () => console.log(`LISTENING ${(server.address() as AddressInfo).port}`));
server.keepAliveTimeout = 65_000;
