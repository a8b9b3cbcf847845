// Typed configuration from environment variables and matching --flags (flags win).
import os from 'node:os';
import path from 'node:path';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** Public base URI used in every resource URI, without a trailing slash. */
  baseUrl: string;
  /** Largest accepted request body, in bytes. */
  bodyLimit: number;
  /** Include stack traces in error reports. */
  debug: boolean;
  /** Time limit of a SPARQL endpoint query, in milliseconds. */
  sparqlTimeoutMs: number;
  /** Default and maximum page sizes of collections. */
  pageSize: number;
  maxPageSize: number;
  /** Journal records between snapshots. */
  snapshotEvery: number;
  /** Worker threads for jobs (0 = number of cores). */
  workers: number;
  /** Jobs run at once (0 = twice the worker threads). */
  taskConcurrency: number;
  /** Queued tasks accepted before submissions are rejected with 503. */
  queueLength: number;
  /** A job that finishes within this window answers 200 directly (SPEC §4.3). */
  syncWindowMs: number;
  /** Finished tasks older than this are purged, in hours (0 = never). */
  taskRetentionHours: number;
  authMode: 'off' | 'local' | 'opensso';
  authServiceUrl: string;
  tokenTtlSeconds: number;
  /** Trust X-Forwarded-* headers (only behind a proxy that sets them). */
  trustProxy: boolean;
  /** Time limit of one substructure search's exact matching, in milliseconds. */
  searchTimeoutMs: number;
  /** Worker threads for substructure matching. */
  searchWorkers: number;
  /** Molecules each matcher keeps parsed between searches; auto: see searchMoleculeCache(). */
  searchMoleculeCache: number | 'auto';
  /** Who may read resources when auth is on: anyone, any user, or owners and their grantees. */
  authRead: 'public' | 'authenticated' | 'owner';
  /** Login attempts allowed per address within loginWindowSeconds (0 = unlimited). */
  loginRateLimit: number;
  loginWindowSeconds: number;
  /** SPARQL 1.1 query endpoint of a remote store; empty = the embedded store under dataDir. */
  sparqlEndpoint: string;
  /** SPARQL 1.1 update endpoint (empty = sparqlEndpoint). */
  sparqlUpdateEndpoint: string;
  /** SPARQL 1.1 Graph Store Protocol endpoint, where large additions go (empty = updates only). */
  sparqlGraphStore: string;
  sparqlUser: string;
  sparqlPassword: string;
  /** Time limit of one request to a remote store, in milliseconds. */
  storeTimeoutMs: number;
  /** Redis of the distributed job queue (BullMQ); empty = jobs run in this process. */
  redisUrl: string;
  /** Milliseconds a worker's silence may last before its job counts as abandoned (distributed mode). */
  jobLockMs: number;
  /** Origins whose browser scripts may call the service (CORS); empty = none, ['*'] = any. */
  corsOrigins: string[];
  /** Log level of the JSON-lines log (pino): fatal, error, warn, info, debug, trace or silent. */
  logLevel: LogLevel;
  /** Time a client has to send a whole request (headers and body), in milliseconds (0 = none). */
  requestTimeoutMs: number;
  /** Time a client has to send a request's headers, in milliseconds. */
  headersTimeoutMs: number;
  /** Limits that protect the service (src/http/limits.ts); each refusal names its option. */
  maxAtoms: number;
  maxDatasetRows: number;
  maxRdfTriples: number;
  maxNesting: number;
  maxSparqlLength: number;
  maxParameters: number;
  /** Jobs one client (user, else address) may have queued or running (0 = no quota). */
  jobQuota: number;
  /** Origins the service may call although they resolve to loopback or private addresses (src/http/outbound). */
  remoteOrigins: string[];
  /** Origins besides the service's own that may receive the caller's token (they share its authentication service). */
  tokenOrigins: string[];
  /** Time limit of connecting to another service, and of a whole exchange with it, in milliseconds. */
  remoteConnectTimeoutMs: number;
  remoteTimeoutMs: number;
  /** Requests to other services one job (or one request) may make, redirects included. */
  remoteMaxFetches: number;
}

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';

interface Option<K extends keyof Config> {
  key: K;
  env: string;
  parse: (raw: string) => Config[K];
  describe: string;
}

const int = (raw: string): number => {
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0) throw new Error(`expected a non-negative integer, got "${raw}"`);
  return n;
};
const decimal = (raw: string): number => {
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(n) || n < 0) throw new Error(`expected a non-negative number, got "${raw}"`);
  return n;
};
const bool = (raw: string): boolean => {
  // Any other word is refused rather than read as false: a misspelt DEBUG_ERRORS or
  // TRUST_PROXY would otherwise turn the option off without a word.
  if (/^(1|true|yes|on)$/i.test(raw)) return true;
  if (/^(0|false|no|off)$/i.test(raw)) return false;
  throw new Error(`expected true or false (1/0, yes/no, on/off), got "${raw}"`);
};
const str = (raw: string): string => raw;

/** Every option, its variable and its meaning: docs/configuration.md mirrors this (test/unit/readme.test.ts). */
export const OPTIONS: Option<keyof Config>[] = [
  { key: 'port', env: 'PORT', parse: int, describe: 'TCP port (default 8080)' },
  { key: 'host', env: 'HOST', parse: str, describe: 'interface to listen on (default 127.0.0.1)' },
  { key: 'dataDir', env: 'DATA_DIR', parse: (r) => path.resolve(r), describe: 'store, journal and structure files (default ./data)' },
  { key: 'baseUrl', env: 'BASE_URL', parse: (r) => r.replace(/\/+$/, ''), describe: 'public base URI of every resource (default http://HOST:PORT)' },
  { key: 'bodyLimit', env: 'BODY_LIMIT', parse: int, describe: 'largest request body in bytes (default 104857600)' },
  { key: 'debug', env: 'DEBUG_ERRORS', parse: bool, describe: 'stack traces in error reports (default false)' },
  { key: 'sparqlTimeoutMs', env: 'SPARQL_TIMEOUT_MS', parse: int, describe: 'time limit of a SPARQL query (default 30000)' },
  { key: 'pageSize', env: 'PAGE_SIZE', parse: int, describe: 'default page size of lists (default 1000)' },
  { key: 'maxPageSize', env: 'MAX_PAGE_SIZE', parse: int, describe: 'largest page size of lists (default 100000)' },
  { key: 'snapshotEvery', env: 'SNAPSHOT_EVERY', parse: int, describe: 'journal records between snapshots (default 10000)' },
  { key: 'workers', env: 'WORKERS', parse: int, describe: 'job worker threads, 0 = one per core (default 0); with REDIS_URL an API process given 0 runs no jobs' },
  { key: 'taskConcurrency', env: 'TASK_CONCURRENCY', parse: int, describe: 'jobs run at once, 0 = twice the worker threads (default 0)' },
  { key: 'queueLength', env: 'QUEUE_LENGTH', parse: int, describe: 'queued tasks before 503 Rejected (default 1000)' },
  { key: 'syncWindowMs', env: 'SYNC_WINDOW_MS', parse: int, describe: 'jobs done within this answer 200 directly (default 0)' },
  { key: 'taskRetentionHours', env: 'TASK_RETENTION_HOURS', parse: decimal, describe: 'purge finished tasks after this many hours (fractions too), 0 = never (default 168)' },
  { key: 'authMode', env: 'AUTH_MODE', parse: (r) => parseAuthMode(r), describe: 'off, local or opensso (default off)' },
  { key: 'authServiceUrl', env: 'AUTH_SERVICE_URL', parse: str, describe: 'OpenSSO/OpenAM service for AUTH_MODE=opensso' },
  { key: 'tokenTtlSeconds', env: 'TOKEN_TTL_SECONDS', parse: int, describe: 'lifetime of issued tokens (default 86400)' },
  { key: 'trustProxy', env: 'TRUST_PROXY', parse: bool, describe: 'trust X-Forwarded-For/-Proto from a proxy in front (default false)' },
  { key: 'searchTimeoutMs', env: 'SEARCH_TIMEOUT_MS', parse: int, describe: 'time limit of a substructure search, 503 beyond (default 10000)' },
  { key: 'searchWorkers', env: 'SEARCH_WORKERS', parse: int, describe: 'matcher processes of the substructure search, 0 = one per core (default 0)' },
  { key: 'searchMoleculeCache', env: 'SEARCH_MOLECULE_CACHE', parse: (r) => parseMoleculeCache(r), describe: 'molecules each substructure matcher keeps parsed between searches, about 12.5 KB each; auto = its share of an eighth of the memory, at most 3 GiB a matcher; 0 = none (default auto)' },
  { key: 'authRead', env: 'AUTH_READ', parse: (r) => parseAuthRead(r), describe: 'with auth on, who reads: public, authenticated, or owner (owners and whom they grant; default public)' },
  { key: 'loginRateLimit', env: 'LOGIN_RATE_LIMIT', parse: int, describe: 'login attempts per address and window, 0 = unlimited (default 10)' },
  { key: 'loginWindowSeconds', env: 'LOGIN_WINDOW_SECONDS', parse: int, describe: 'window of LOGIN_RATE_LIMIT in seconds (default 60)' },
  { key: 'sparqlEndpoint', env: 'SPARQL_ENDPOINT', parse: str, describe: 'SPARQL 1.1 query endpoint of a remote store; unset = the embedded store in DATA_DIR' },
  { key: 'sparqlUpdateEndpoint', env: 'SPARQL_UPDATE_ENDPOINT', parse: str, describe: 'SPARQL 1.1 update endpoint of the remote store (default SPARQL_ENDPOINT)' },
  { key: 'sparqlGraphStore', env: 'SPARQL_GRAPH_STORE', parse: str, describe: 'SPARQL 1.1 Graph Store Protocol endpoint of the remote store, for large writes (Virtuoso: /sparql-graph-crud); unset = every write is a SPARQL update' },
  { key: 'sparqlUser', env: 'SPARQL_USER', parse: str, describe: 'user for HTTP authentication (Basic or Digest) at the remote store' },
  { key: 'sparqlPassword', env: 'SPARQL_PASSWORD', parse: str, describe: 'password of SPARQL_USER' },
  { key: 'storeTimeoutMs', env: 'STORE_TIMEOUT_MS', parse: int, describe: 'time limit of one request to the remote store, 503 beyond (default 60000)' },
  { key: 'redisUrl', env: 'REDIS_URL', parse: str, describe: 'Redis of the job queue shared with `npm run worker` processes; unset = jobs run in this process' },
  { key: 'jobLockMs', env: 'JOB_LOCK_MS', parse: int, describe: 'with REDIS_URL: milliseconds after which the job of a silent worker is taken back (default 30000)' },
  { key: 'corsOrigins', env: 'CORS_ORIGINS', parse: (r) => parseOrigins(r), describe: 'browser origins allowed to call the service (CORS): a comma list or *, default none' },
  { key: 'logLevel', env: 'LOG_LEVEL', parse: (r) => parseLogLevel(r), describe: 'JSON-lines log level: fatal, error, warn, info, debug, trace or silent (default info)' },
  { key: 'requestTimeoutMs', env: 'REQUEST_TIMEOUT_MS', parse: int, describe: 'time a client has to send a whole request, headers and body, 408 beyond; 0 = none (default 300000)' },
  { key: 'headersTimeoutMs', env: 'HEADERS_TIMEOUT_MS', parse: int, describe: 'time a client has to send the request headers, 408 beyond (default 60000)' },
  { key: 'maxAtoms', env: 'MAX_ATOMS', parse: int, describe: 'most atoms in an uploaded structure, 413 beyond; at most 500, the toolkit limit (default 500)' },
  { key: 'maxDatasetRows', env: 'MAX_DATASET_ROWS', parse: int, describe: 'most rows (CSV lines, SD records) in one dataset upload, 413 beyond (default 1000000)' },
  { key: 'maxRdfTriples', env: 'MAX_RDF_TRIPLES', parse: int, describe: 'most triples in one RDF body, 413 beyond (default 1000000)' },
  { key: 'maxNesting', env: 'MAX_NESTING', parse: int, describe: 'deepest nesting of brackets or elements in a SPARQL query or RDF body, 413 beyond (default 64)' },
  { key: 'maxSparqlLength', env: 'MAX_SPARQL_LENGTH', parse: int, describe: 'longest SPARQL query in characters, 413 beyond (default 100000)' },
  { key: 'maxParameters', env: 'MAX_PARAMETERS', parse: int, describe: 'most parameters in a query string or form body, 413 beyond (default 1000)' },
  { key: 'jobQuota', env: 'JOB_QUOTA', parse: int, describe: 'jobs one client (user, else address) may have queued or running, 429 beyond; 0 = no quota (default 100)' },
  { key: 'remoteOrigins', env: 'REMOTE_ORIGINS', parse: (r) => parseServiceOrigins(r), describe: 'origins (scheme://host:port, comma list) the service may call although they are loopback, private or link-local addresses; default none' },
  { key: 'tokenOrigins', env: 'TOKEN_ORIGINS', parse: (r) => parseServiceOrigins(r), describe: "origins (comma list) that share this service's authentication service and receive the caller's token; the own origin always does; default none" },
  { key: 'remoteConnectTimeoutMs', env: 'REMOTE_CONNECT_TIMEOUT_MS', parse: int, describe: 'time limit of connecting to another service, 502 beyond; 0 = none (default 10000)' },
  { key: 'remoteTimeoutMs', env: 'REMOTE_TIMEOUT_MS', parse: int, describe: 'time limit of one whole exchange with another service, redirects included, 502 beyond; 0 = none (default 60000)' },
  { key: 'remoteMaxFetches', env: 'REMOTE_MAX_FETCHES', parse: int, describe: 'requests to other services (redirects included) one job or request may make, 413 beyond; 0 = no limit (default 10000)' },
];

/** Origins of services the operator trusts; no wildcard: each is named. */
function parseServiceOrigins(raw: string): string[] {
  const list = parseOrigins(raw);
  if (list.includes('*')) throw new Error('expected origins like http://127.0.0.1:8081, not *');
  return list;
}

/** CORS origins as the Origin header spells them: scheme://host[:port], no path. */
function parseOrigins(raw: string): string[] {
  const list = raw.split(',').map((o) => o.trim()).filter(Boolean);
  if (list.includes('*')) return ['*'];
  return list.map((o) => {
    let url: URL;
    try {
      url = new URL(o);
    } catch {
      throw new Error(`expected origins like https://app.example.org or *, got "${o}"`);
    }
    if (url.origin === 'null' || url.origin !== o.replace(/\/+$/, '')) throw new Error(`expected an origin (scheme://host[:port]), got "${o}"`);
    return url.origin;
  });
}

const LOG_LEVELS: LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function parseLogLevel(raw: string): LogLevel {
  const level = raw.toLowerCase() as LogLevel;
  if (LOG_LEVELS.includes(level)) return level;
  throw new Error(`expected one of ${LOG_LEVELS.join(', ')}, got "${raw}"`);
}

function parseMoleculeCache(raw: string): Config['searchMoleculeCache'] {
  if (raw === 'auto') return raw;
  if (/^\d+$/.test(raw)) return Number(raw);
  throw new Error(`expected auto or a non-negative integer, got "${raw}"`);
}

function parseAuthRead(raw: string): Config['authRead'] {
  if (raw === 'public' || raw === 'authenticated' || raw === 'owner') return raw;
  throw new Error(`expected public, authenticated or owner, got "${raw}"`);
}

function parseAuthMode(raw: string): Config['authMode'] {
  if (raw === 'off' || raw === 'local' || raw === 'opensso') return raw;
  throw new Error(`expected off, local or opensso, got "${raw}"`);
}

export function defaults(): Omit<Config, 'baseUrl'> & { baseUrl?: string } {
  return {
    port: 8080,
    host: '127.0.0.1',
    dataDir: path.resolve('data'),
    bodyLimit: 100 * 1024 * 1024,
    debug: false,
    sparqlTimeoutMs: 30_000,
    pageSize: 1000,
    maxPageSize: 100_000,
    snapshotEvery: 10_000,
    workers: 0,
    taskConcurrency: 0,
    queueLength: 1000,
    syncWindowMs: 0,
    taskRetentionHours: 168,
    authMode: 'off',
    authServiceUrl: '',
    tokenTtlSeconds: 86_400,
    trustProxy: false,
    searchTimeoutMs: 10_000,
    searchWorkers: 0,
    searchMoleculeCache: 'auto',
    authRead: 'public',
    loginRateLimit: 10,
    loginWindowSeconds: 60,
    sparqlEndpoint: '',
    sparqlUpdateEndpoint: '',
    sparqlGraphStore: '',
    sparqlUser: '',
    sparqlPassword: '',
    storeTimeoutMs: 60_000,
    redisUrl: '',
    jobLockMs: 30_000,
    corsOrigins: [],
    logLevel: 'info',
    requestTimeoutMs: 300_000,
    headersTimeoutMs: 60_000,
    maxAtoms: 500,
    maxDatasetRows: 1_000_000,
    maxRdfTriples: 1_000_000,
    maxNesting: 64,
    maxSparqlLength: 100_000,
    maxParameters: 1000,
    jobQuota: 100,
    remoteOrigins: [],
    tokenOrigins: [],
    remoteConnectTimeoutMs: 10_000,
    remoteTimeoutMs: 60_000,
    remoteMaxFetches: 10_000,
  };
}

/** Threads of the job pool: WORKERS, or one per core when it is 0. */
export const workerThreads = (config: Pick<Config, 'workers'>): number => config.workers || os.availableParallelism();

/**
 * Threads for work a client waits on in its request (the request parser's, the job engine's
 * request threads): one a core up to four (on two cores, two parser threads took 5 to 15 %
 * more compounds a second than one); each stops after REQUEST_THREAD_IDLE_MS without work,
 * its memory returned.
 */
export const REQUEST_THREADS = Math.min(4, os.availableParallelism());
export const REQUEST_THREAD_IDLE_MS = 120_000;

/** Matcher processes of the substructure search: SEARCH_WORKERS, or one per core when it is 0. */
export const searchMatchers = (config: Pick<Config, 'searchWorkers'>): number => config.searchWorkers || os.availableParallelism();

/** Memory a molecule kept parsed takes in a matcher's RDKit heap, about. */
const MOLECULE_BYTES = 12_500;
/** Most a matcher keeps molecules in: RDKit's WebAssembly heap ends at 4 GiB. */
const MATCHER_CACHE_BYTES = 3 * 2 ** 30;

/**
 * Molecules each matcher keeps parsed: SEARCH_MOLECULE_CACHE, or for auto each matcher's
 * share of an eighth of the memory (a container's limit when lower than the machine's).
 */
export function searchMoleculeCache(config: Pick<Config, 'searchMoleculeCache' | 'searchWorkers'>, memory = Math.min(os.totalmem(), process.constrainedMemory() || Infinity)): number {
  if (config.searchMoleculeCache !== 'auto') return config.searchMoleculeCache;
  return Math.floor(Math.min(memory / 8 / searchMatchers(config), MATCHER_CACHE_BYTES) / MOLECULE_BYTES);
}

/** Flag name of an option: PORT → --port, DATA_DIR → --data-dir. */
export const flagName = (env: string): string => '--' + env.toLowerCase().replace(/_/g, '-');

/** Reads configuration: defaults, then environment, then --flag value / --flag=value. */
export function loadConfig(argv: string[] = [], env: NodeJS.ProcessEnv = {}, overrides: Partial<Config> = {}): Config {
  const cfg: Record<string, unknown> = { ...defaults() };
  const flags = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('--')) continue;
    const eq = arg.indexOf('=');
    const next = argv[i + 1];
    if (eq > 0) flags.set(arg.slice(0, eq), arg.slice(eq + 1));
    else if (next !== undefined && !next.startsWith('--')) {
      flags.set(arg, next);
      i++;
    } else flags.set(arg, 'true');
  }
  const known = new Set(OPTIONS.map((o) => flagName(o.env)));
  for (const flag of flags.keys()) if (!known.has(flag)) throw new Error(`unknown option ${flag}`);
  for (const opt of OPTIONS) {
    const raw = flags.get(flagName(opt.env)) ?? env[opt.env];
    if (raw === undefined || raw === '') continue;
    try {
      cfg[opt.key] = opt.parse(raw);
    } catch (e) {
      throw new Error(`${opt.env}: ${(e as Error).message}`, { cause: e });
    }
  }
  Object.assign(cfg, overrides);
  if (!cfg.baseUrl) cfg.baseUrl = `http://${cfg.host}:${cfg.port}`;
  return cfg as unknown as Config;
}
