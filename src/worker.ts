// `npm run worker`: a process that runs jobs and answers no requests. It reads the same
// environment as the API (SPARQL_ENDPOINT, REDIS_URL, DATA_DIR, ...), opens the same store
// and defines the same job kinds (src/jobs.ts), then takes jobs from the shared queue.
import { loadConfig } from './config.ts';
import { openDeps } from './boot.ts';
import { createLogger } from './logger.ts';

async function main(): Promise<void> {
  const config = loadConfig(process.argv.slice(2), process.env);
  // Jobs come from the shared queue and their tasks from the shared store: without both a worker has nothing to do.
  if (!config.redisUrl || !config.sparqlEndpoint) throw new Error('a worker shares the job queue and the store with the API processes: set REDIS_URL and SPARQL_ENDPOINT');
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
