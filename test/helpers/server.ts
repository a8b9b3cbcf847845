// The real server plus the test-only graph routes, as a child process the durability test
// can SIGKILL. Configured like main.ts (environment, flags); prints "LISTENING <port>".
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../../src/config.ts';
import { openDeps } from '../../src/boot.ts';
import { createApp } from '../../src/app.ts';
import { testGraphRouter } from './testGraphRouter.ts';

const config = loadConfig(process.argv.slice(2), process.env);
const deps = await openDeps(config);
const app = createApp(deps);
app.use(testGraphRouter(deps).routes());
const server = app.listen(config.port, config.host, () => {
  console.log(`LISTENING ${(server.address() as AddressInfo).port}`);
});
process.on('SIGTERM', () => {
  server.close();
  void deps.close().then(() => process.exit(0));
});
