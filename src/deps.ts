// What routes and domain functions are given (STYLE §3: factories with an explicit deps
// argument; tests pass their own through the same argument).
import type { Config } from './config.ts';
import type { Store } from './store/api.ts';
import type { IdentityService } from './auth/identity.ts';
import type { TaskEngine } from './tasks/api.ts';
import type { SearchEngine } from './search/engine.ts';
import type { Logger } from './logger.ts';
import type { ChangeFeed } from './store/changeFeed.ts';
import type { AlgorithmIO } from './algorithms/io.ts';
import type { Predictors } from './models/predictors.ts';

export interface Deps {
  config: Config;
  store: Store;
  /** Runs long operations as tasks (SPEC §4.3); see src/tasks/api.ts. */
  tasks: TaskEngine;
  /** Structure search index. */
  search: SearchEngine;
  /** What other processes sharing the store changed (src/store/changeFeed.ts); silent in one process. */
  changes: ChangeFeed;
  /** The JSON-lines log (pino): requests, tasks, and errors worth an operator's attention. */
  logger: Logger;
  /** Checks and issues tokens; absent when AUTH_MODE=off. */
  identity?: IdentityService;
  /** What algorithm runs read and create (src/algorithms/datasetIO.ts), built once at boot. */
  io: AlgorithmIO;
  /** How each kind of model predicts (POST /model/{id}), by kind; built once at boot. */
  predictors: Predictors;
}

/** Absolute URI of a path under the service's public base. */
export const uriOf = (config: Config, path: string): string => config.baseUrl + (path.startsWith('/') ? path : '/' + path);
