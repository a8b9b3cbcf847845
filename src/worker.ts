// `npm run worker`: a process that runs jobs and answers no requests. It reads the same
// environment as the API (SPARQL_ENDPOINT, REDIS_URL, DATA_DIR, ...), opens the same store
// and defines the same job kinds (src/jobs.ts), then takes jobs from the shared queue.
import { loadConfig } from './config.ts';
import { openDeps } from './boot.ts';
import { createLogger } from './logger.ts';

async function main(): Promise<void> {
  const config = loadConfig(process.argv.slice(2), process.env);
  if (!config.redisUrl) throw new Error('a worker takes jobs from a shared queue: set REDIS_URL (and SPARQL_ENDPOINT, so that API and workers share a store)');
  const logger = createLogger(config.logLevel);
  const deps = await openDeps(config, logger, { role: 'worker' });
  logger.info({ dataDir: config.dataDir, pid: process.pid }, 'job worker started');
  const stop = async () => {
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
