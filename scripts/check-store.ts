// npm run check-store [-- --data-dir DIR]: consistency check of a data directory, run while
// the service is stopped (after a crash, before a backup). Reads a copy of the store in
// memory and changes nothing. Prints each problem on its own line and exits 1 when there is
// any, 0 when the directory is consistent, 2 when it cannot be read at all.
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../src/config.ts';
import { loadStoreCopy, type StoreCopy } from '../src/store/embedded/inspect.ts';

/** Files that only exist while a write is in progress (atomic writes rename them away). */
const TEMP_FILE = /\.tmp$/;

function walk(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? walk(full) : [full];
  });
}

/** Every problem found in `dataDir`, as one readable line each. */
export function checkStore(dataDir: string): string[] {
  const problems: string[] = [];
  let store: StoreCopy;
  try {
    store = loadStoreCopy(path.join(dataDir, 'store'));
  } catch (e) {
    return [`the store cannot be loaded: ${(e as Error).message}`];
  }
  if (store.torn) problems.push('the last journal segment ends in a torn record (a write cut short; the next start drops it)');
  for (const r of store.select('check-dataset-compounds')) problems.push(`dataset ${r.dataset} has an entry for ${r.compound}, which does not exist`);
  for (const r of store.select('check-model-features')) problems.push(`model ${r.model} names feature ${r.feature}, which does not exist`);
  for (const r of store.select('check-running-tasks')) problems.push(`task ${r.task} is Running, but no service is running (the next start marks it)`);

  const structures = path.join(dataDir, 'structures');
  const named = new Set(store.select('structure-files').map((r) => r.file!)); // the query binds ?file on every row
  for (const rel of named) {
    if (!existsSync(path.join(structures, rel))) problems.push(`structure file structures/${rel} is named in the store but missing`);
  }
  for (const file of walk(structures)) {
    const rel = path.relative(structures, file).split(path.sep).join('/');
    if (!TEMP_FILE.test(rel) && !named.has(rel)) problems.push(`structure file structures/${rel} is named by no compound or conformer`);
  }
  for (const file of walk(dataDir)) {
    if (TEMP_FILE.test(file)) problems.push(`temporary file ${path.relative(dataDir, file)} was left by an interrupted write`);
  }
  // An upload's saved body lives while its task is Queued or Running; the task's parameters name it.
  const params = store.select('check-unfinished-params').map((r) => r.params).join('\n');
  for (const file of walk(path.join(dataDir, 'uploads'))) {
    if (statSync(file).isFile() && !params.includes(JSON.stringify(file).slice(1, -1))) problems.push(`upload file ${path.relative(dataDir, file)} belongs to no unfinished task`);
  }
  return problems;
}

function main(argv: string[]): number {
  let config;
  try {
    config = loadConfig(argv, process.env);
  } catch (e) {
    console.error((e as Error).message);
    return 2;
  }
  if (!existsSync(path.join(config.dataDir, 'store'))) {
    console.error(`no store in ${config.dataDir} (set DATA_DIR or --data-dir)`);
    return 2;
  }
  const problems = checkStore(config.dataDir);
  if (problems.length === 0) {
    console.log(`${config.dataDir}: consistent`);
    return 0;
  }
  console.log(`${config.dataDir}: ${problems.length} problem${problems.length === 1 ? '' : 's'}`);
  for (const p of problems) console.log(`- ${p}`);
  return 1;
}

if (import.meta.url === `file://${process.argv[1]}`) process.exitCode = main(process.argv.slice(2));
