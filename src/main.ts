// The only file with process effects: reads configuration, opens the store, listens.
import { loadConfig } from './config.ts';
import { prepareDataDir } from './dataDir.ts';

async function main(): Promise<void> {
  const config = loadConfig(process.argv.slice(2), process.env);
  // Belt and braces: every file under DATA_DIR is created private anyway (src/files/privateFiles.ts).
  process.umask(0o077);
  // Checked before the toolkits and the store are loaded (about a second): a DATA_DIR
  // that cannot hold files is refused at once. openDeps checks it again for other callers.
  prepareDataDir(config.dataDir);
  const [{ openDeps }, { createApp }, { createLogger }, { createHttpServer }] = await Promise.all([
    import('./boot.ts'), import('./app.ts'), import('./logger.ts'), import('./http/listen.ts'),
  ]);
  const logger = createLogger(config.logLevel);
  const deps = await openDeps(config, logger);
  const app = createApp(deps);
  const server = createHttpServer(config, app.callback());
  server.listen(config.port, config.host, () => {
    logger.info({ baseUrl: config.baseUrl, dataDir: config.dataDir, logLevel: config.logLevel }, `OpenTox service at ${config.baseUrl} (data in ${config.dataDir})`);
  });
  const stop = async () => {
    server.close();
    await deps.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

// A service that cannot start (an unwritable DATA_DIR, a port in use, a store out of reach)
// says why in one line and exits non-zero; no stack trace.
main().catch((e) => {
  console.error(`opentox: cannot start: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
