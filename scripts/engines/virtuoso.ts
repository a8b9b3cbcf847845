// Starts Virtuoso (Debian's virtuoso-opensource-7) from a directory of its own, on free
// loopback ports, for the tests and benchmarks of the remote store mode and for local
// development (`npm run engines`). Nothing here is used by the service itself: it only
// needs the SPARQL endpoint's URL.
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { mkdirSync, writeFileSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort, waitFor } from './ports.ts';

const run = promisify(execFile);

export const VIRTUOSO_BIN = process.env.VIRTUOSO_BIN ?? '/usr/bin/virtuoso-t';
export const ISQL_BIN = process.env.ISQL_BIN ?? '/usr/bin/isql-vt';

export interface VirtuosoOptions {
  dir: string;
  /** 8 KiB pages of cache; 170,000 (1.3 GiB) suits a few million triples. */
  buffers?: number;
  /** Rows a single SELECT may answer (Virtuoso's ResultSetMaxRows). */
  maxRows?: number;
}

export interface Virtuoso {
  /** The SPARQL 1.1 Protocol endpoint (query and update). */
  endpoint: string;
  /** The SPARQL 1.1 Graph Store HTTP Protocol endpoint (SPARQL_GRAPH_STORE). */
  graphStore: string;
  sqlPort: number;
  process: ChildProcess;
  stop: () => Promise<void>;
}

function ini(dir: string, sqlPort: number, httpPort: number, options: VirtuosoOptions): string {
  const buffers = options.buffers ?? 20_000;
  return `[Database]
DatabaseFile = ${dir}/virtuoso.db
ErrorLogFile = ${dir}/virtuoso.log
LockFile = ${dir}/virtuoso.lck
TransactionFile = ${dir}/virtuoso.trx
xa_persistent_file = ${dir}/virtuoso.pxa
ErrorLogLevel = 7
FileExtend = 200
MaxCheckpointRemap = 2000
Striping = 0
TempStorage = TempDatabase

[TempDatabase]
DatabaseFile = ${dir}/virtuoso-temp.db
TransactionFile = ${dir}/virtuoso-temp.trx
MaxCheckpointRemap = 2000
Striping = 0

[Parameters]
ServerPort = 127.0.0.1:${sqlPort}
DisableUnixSocket = 1
ServerThreads = 20
CheckpointInterval = 60
NumberOfBuffers = ${buffers}
MaxDirtyBuffers = ${Math.floor(buffers * 0.75)}
DirsAllowed = ., ${dir}
TransactionAfterImageLimit = 500000000

[HTTPServer]
ServerPort = 127.0.0.1:${httpPort}
ServerRoot = ${dir}
MaxClientConnections = 20
ServerThreads = 20
KeepAliveTimeout = 10
MaxKeepAlives = 20

[SPARQL]
ResultSetMaxRows = ${options.maxRows ?? 10_000}
MaxQueryCostEstimationTime = 0
MaxQueryExecutionTime = 0
MaxSortedTopRows = 10000
`;
}

/** Starts Virtuoso in `options.dir` and grants SPARQL updates to the endpoint's user. */
export async function startVirtuoso(options: VirtuosoOptions): Promise<Virtuoso> {
  if (!existsSync(VIRTUOSO_BIN)) throw new Error(`${VIRTUOSO_BIN} is missing: apt-get install virtuoso-opensource-7-bin`);
  const dir = path.resolve(options.dir);
  mkdirSync(dir, { recursive: true });
  const [sqlPort, httpPort] = [await freePort(), await freePort()];
  writeFileSync(path.join(dir, 'virtuoso.ini'), ini(dir, sqlPort, httpPort, options));
  const child = spawn(VIRTUOSO_BIN, ['-f', '-c', path.join(dir, 'virtuoso.ini')], { cwd: dir, stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const endpoint = `http://127.0.0.1:${httpPort}/sparql`;
  let dead = false;
  void exited.then(() => { dead = true; });
  try {
    await waitFor('Virtuoso', async () => {
      if (dead) throw new Error('exited');
      const res = await fetch(`${endpoint}?query=${encodeURIComponent('ASK {}')}`, { signal: AbortSignal.timeout(2000) });
      return res.ok;
    }, 60_000);
  } catch (e) {
    child.kill('SIGKILL');
    const log = existsSync(path.join(dir, 'virtuoso.log')) ? readFileSync(path.join(dir, 'virtuoso.log'), 'utf8').slice(-2000) : '';
    throw new Error(`${(e as Error).message}; virtuoso.log ends with:\n${log}`, { cause: e });
  }
  // The anonymous /sparql user may only read until granted (Virtuoso's default).
  await run(ISQL_BIN, [`127.0.0.1:${sqlPort}`, 'dba', 'dba', 'exec=GRANT SPARQL_UPDATE TO "SPARQL";']);
  return {
    endpoint,
    graphStore: `http://127.0.0.1:${httpPort}/sparql-graph-crud`,
    sqlPort,
    process: child,
    stop: async () => {
      if (!dead) child.kill('SIGKILL');
      await exited;
    },
  };
}
