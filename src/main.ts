// The only file with process effects: reads configuration, opens the store, listens.
import { loadConfig } from './config.ts';
import { openDeps } from './boot.ts';
import { createApp } from './app.ts';
import { createLogger } from './logger.ts';

async function main(): Promise<void> {
  const config = loadConfig(process.argv.slice(2), process.env);
  const logger = createLogger(config.logLevel);
  const deps = await openDeps(config, logger);
  const app = createApp(deps);
  const server = app.listen(config.port, config.host, () => {
    logger.info({ baseUrl: config.baseUrl, dataDir: config.dataDir, logLevel: config.logLevel }, `OpenTox service at ${config.baseUrl} (data in ${config.dataDir})`);
  });
  // Idle keep-alive sockets outlive the clients' own idle timeout (undici's is 4 s), so a
  // polling client never reuses a socket the server is just closing (ECONNRESET).
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  const stop = async () => {
    server.close();
    await deps.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
