// Starts the real app over HTTP on a temp data directory (STYLE §10).
import { rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { createServer, type RequestListener, type Server } from 'node:http';
import { loadConfig, type Config } from '../../src/config.ts';
import { createApp } from '../../src/app.ts';
import { openDeps, type Running } from '../../src/boot.ts';
import { createLogger } from '../../src/logger.ts';
import { releaseVirtuoso, storeConfig } from './engines.ts';
import { tempDir } from './tempDirs.ts';

export interface TestApp {
  url: string;
  /** Where the server listens; differs from `url` when a test fixes baseUrl (restart tests). */
  origin: string;
  deps: Running;
  /** What the app logged at `logLevel` (default warn: errors worth an operator's attention), as parsed JSON lines. */
  logged: Array<Record<string, unknown>>;
  dataDir: string;
  close: (options?: { keepData?: boolean }) => Promise<void>;
}

export { tempDir } from './tempDirs.ts';

export async function startApp(overrides: Partial<Config> = {}, dataDir = tempDir()): Promise<TestApp> {
  // Tests stay quiet: the log goes to `logged`, at warn unless a test asks for more.
  // The remote run gives each app a Virtuoso of its own (test/helpers/engines.ts).
  const store = overrides.sparqlEndpoint === undefined ? await storeConfig(dataDir) : {};
  const config = loadConfig([], {}, { port: 0, dataDir, logLevel: 'warn', ...store, ...overrides });
  const logged: Array<Record<string, unknown>> = [];
  const logger = createLogger(config.logLevel, { write: (line: string) => { logged.push(JSON.parse(line) as Record<string, unknown>); } });
  // Listen first, so that boot steps (e.g. loading the built-in ontologies) already see the
  // real base URI. Nobody knows the port before startApp returns, so no request comes early.
  let handler: RequestListener = (_req, res) => res.writeHead(503).end();
  const server: Server = await new Promise((resolve) => {
    const s = createServer((req, res) => handler(req, res)).listen(0, '127.0.0.1', () => resolve(s));
    // As in src/main.ts: outlive the client's idle timeout, so polls never hit a closing socket.
    s.keepAliveTimeout = 65_000;
    s.headersTimeout = 66_000;
  });
  const port = (server.address() as AddressInfo).port;
  config.port = port;
  config.baseUrl = overrides.baseUrl ?? `http://127.0.0.1:${port}`;
  const deps = await openDeps(config, logger);
  handler = createApp(deps).callback();
  return {
    url: config.baseUrl,
    origin: `http://127.0.0.1:${port}`,
    deps,
    logged,
    dataDir,
    close: async (options = {}) => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      await deps.close();
      if (store.sparqlEndpoint) await releaseVirtuoso(dataDir, options.keepData);
      if (!options.keepData) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
