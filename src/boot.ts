// Opens everything the app depends on, in order, and closes it in reverse. main.ts and
// the integration tests both start the service through here, so they run the same code.
import path from 'node:path';
import { searchMatchers, searchMoleculeCache, type Config } from './config.ts';
import type { Deps } from './deps.ts';
import type { Store } from './store/api.ts';
import { versioned, versionsOf } from './store/versions.ts';
import { NoChangeFeed, RedisChangeFeed } from './store/changeFeed.ts';
import { TripleStore } from './store/embedded/store.ts';
import { SparqlStore } from './store/sparql/store.ts';
import { identityOf } from './auth/identityOf.ts';
import { sweepUploads } from './datasets/uploadSweep.ts';
import { UPLOAD_JOB } from './datasets/datasetUploadJob.ts';
import { JOB } from './rdf/vocab.ts';
import { loadBuiltInOntologies } from './ontology/ontology.ts';
import { loadAlgorithms } from './algorithms/boot.ts';
import { algorithmIO } from './algorithms/datasetIO.ts';
import type { AlgorithmIO } from './algorithms/io.ts';
import { modelPredictor } from './algorithms/modelPredictor.ts';
import { MODEL_KIND } from './algorithms/apply.ts';
import { JobEngine, type EngineOptions } from './tasks/engine.ts';
import { defineJobs } from './jobs.ts';
import { closeIds } from './ids/mint.ts';
import { bootCompounds } from './compounds/compoundsBoot.ts';
import { compoundsChanged, reloadCompounds } from './compounds/compoundIndex.ts';
import { SearchEngine } from './search/engine.ts';
import { syncSearchIndex } from './search/sync.ts';
import { createLogger, logSink, type Logger } from './logger.ts';
import { makeDataDirPrivate, prepareDataDir } from './dataDir.ts';

export interface Running extends Deps {
  close: () => Promise<void>;
}

/**
 * The store the configuration names: a SPARQL 1.1 Protocol store when SPARQL_ENDPOINT is
 * set (DESIGN: storage rules, above the embedded ceiling), else the embedded one in DATA_DIR.
 */
export async function openStore(config: Config, logger: Logger): Promise<Store> {
  if (config.sparqlEndpoint) {
    return new SparqlStore({
      queryUrl: config.sparqlEndpoint,
      updateUrl: config.sparqlUpdateEndpoint || undefined,
      graphStoreUrl: config.sparqlGraphStore || undefined,
      user: config.sparqlUser || undefined,
      password: config.sparqlPassword || undefined,
      timeoutMs: config.storeTimeoutMs,
      publicTimeoutMs: config.sparqlTimeoutMs,
    });
  }
  return TripleStore.open(path.join(config.dataDir, 'store'), {
    snapshotEvery: config.snapshotEvery,
    sparqlTimeoutMs: config.sparqlTimeoutMs,
    log: logSink(logger),
    // A queued job's kind, parameters and owner are for the engine, not for researchers.
    privatePredicatePrefixes: [JOB.ns],
  });
}

/**
 * A DATA_DIR that others could read (one written before its files were private) is made
 * private, and the log says so; what cannot be changed is logged at error and the service
 * still starts: refusing would stop a running deployment over a file the operator can fix.
 */
function reportPrivacy(dataDir: string, logger: Logger): void {
  const { fixed, unfixable } = makeDataDirPrivate(dataDir);
  if (fixed > 0) logger.warn({ dataDir, fixed }, `DATA_DIR ${dataDir} was readable by others: group and other permissions removed from ${fixed} files and directories`);
  if (unfixable.length > 0) {
    logger.error({ dataDir, unfixable: unfixable.slice(0, 20), count: unfixable.length }, `DATA_DIR ${dataDir}: ${unfixable.length} files or directories stay readable by others (not owned by this user?); chmod them to 0600 / 0700`);
  }
}

/** `logger` defaults to JSON lines on standard output at config.logLevel. */
export async function openDeps(config: Config, logger: Logger = createLogger(config.logLevel), options: EngineOptions = {}): Promise<Running> {
  const closers: Array<() => Promise<void> | void> = [];
  // Before any file is opened: a DATA_DIR that cannot hold files stops the start-up with the reason.
  prepareDataDir(config.dataDir);
  reportPrivacy(config.dataDir, logger);
  // Several processes on one store hear of each other's writes; one alone has no one to hear from.
  const changes = config.redisUrl && config.sparqlEndpoint
    ? new RedisChangeFeed(config.redisUrl, (message, e) => logger.warn({ err: e }, message))
    : new NoChangeFeed();
  // Where the feed is before anything is read from the store: what others write from here on is heard.
  await changes.open();
  // Versioned: every write is recorded, so cached representations know when they are stale.
  const store = versioned(await openStore(config, logger), changes);
  closers.push(() => store.close());
  closers.push(() => changes.close());
  closers.push(() => closeIds(store));
  const tasks = new JobEngine({ config, store, logger }, options);
  closers.push(() => tasks.close());
  const search = await SearchEngine.open({ dataDir: config.dataDir, timeoutMs: config.searchTimeoutMs, workers: searchMatchers(config), moleculeCache: searchMoleculeCache(config), baseUrl: () => config.baseUrl });
  closers.push(() => search.close());
  const deps: Deps = { config, store, logger, tasks, search, changes, identity: identityOf(config), io: undefined as unknown as AlgorithmIO, predictors: new Map() };
  // Built once, here: both read and write through deps itself, so they are set before anything runs.
  deps.io = algorithmIO(deps);
  deps.predictors.set(MODEL_KIND, modelPredictor(deps));
  // Built-in ontologies are replaced at every start so that upgrades take effect.
  await loadBuiltInOntologies(deps);
  // The catalogue's descriptions, as graphs, so ?type= and ?sameas= run in the store.
  await loadAlgorithms(deps);
  await bootCompounds(deps);
  await syncSearchIndex(deps);
  const versions = versionsOf(store)!;
  changes.start({
    changed: (graphs) => {
      versions.bump(graphs);
      compoundsChanged(deps, graphs);
    },
    lost: async () => {
      versions.forgetAll();
      await reloadCompounds(deps);
      await syncSearchIndex(deps);
    },
  });
  defineJobs(deps);
  // Saved upload bodies that no unfinished task needs (a kill or a cancel left them) go before jobs resume.
  const removed = await sweepUploads(deps, UPLOAD_JOB);
  if (removed.length > 0) logger.warn({ files: removed }, 'removed upload bodies no unfinished task refers to');
  await tasks.start();
  return {
    ...deps,
    close: async () => {
      for (const close of closers.reverse()) await close();
    },
  };
}
