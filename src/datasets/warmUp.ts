// Readies the event loop's code for uploads before the first one. V8 compiles a function
// with its optimising compiler once it has run hot, on helper threads that share the cores
// with the upload's parse: the first upload after a start otherwise pays for compiling the
// whole of its event-loop path (the rows' entries, the compounds' creation and quads, the
// journal record, the store's bulk loads, the search index's entries), about half a second
// of CPU (docs/performance.md). The warm-up is an upload of made-up rows through the same
// code, into a scratch store, search index and data directory of its own, all removed
// afterwards: nothing reaches the service's store, journal, indexes, files or id counters.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Deps } from '../deps.ts';
import type { Store } from '../store/api.ts';
import { EmbeddedStore } from '../store/embedded/embeddedStore.ts';
import { versioned } from '../store/versions.ts';
import { SearchEngine } from '../search/engine.ts';
import { loadCompoundIndex } from '../compounds/compoundIndex.ts';
import { closeIds } from '../ids/mint.ts';
import { WARM_UP_STRUCTURES } from '../chem/warmUp.ts';
import { uploadDatasetFile } from './datasets.ts';
import { PRIVATE_FILE } from '../files/privateFiles.ts';

/**
 * A CSV as users upload them (a SMILES column and a 0/1 activity), one row for each pair of
 * warm-up structures as a mixture: distinct compounds, about a thousand, as many rows as
 * the first batches of a real upload.
 */
export function warmUpCsv(structures: readonly string[] = WARM_UP_STRUCTURES): string {
  const rows = ['SMILES,Activity'];
  structures.forEach((a, i) => {
    for (const b of structures.slice(i)) rows.push(`${a}.${b},${rows.length % 2}`);
  });
  return rows.join('\n') + '\n';
}

/** Uploads `csv` as a dataset into a scratch copy of `deps`' environment, then removes it. */
export async function warmUploads(deps: Pick<Deps, 'config' | 'tasks' | 'logger' | 'changes'>, csv = warmUpCsv()): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'opentox-warm-up-'));
  // Each part is closed if it was opened, and the directory goes whatever failed (a full disk).
  let store: Store | undefined;
  let search: SearchEngine | undefined;
  try {
    store = versioned(await EmbeddedStore.open(path.join(dir, 'store')));
    search = await SearchEngine.open({ timeoutMs: deps.config.searchTimeoutMs, workers: 1, baseUrl: () => deps.config.baseUrl });
    // The service's own job threads parse the rows; everything else is the scratch copy's.
    const scratch: Deps = { ...deps, config: { ...deps.config, dataDir: dir }, store, search };
    await loadCompoundIndex(scratch);
    const file = path.join(dir, 'warm-up.csv');
    writeFileSync(file, csv, { mode: PRIVATE_FILE });
    await uploadDatasetFile(scratch, file, { kind: 'csv', dataset: `${deps.config.baseUrl}/dataset/1`, meta: { title: 'warm-up' } });
  } finally {
    await search?.close();
    if (store) {
      await closeIds(store);
      await store.close();
    }
    rmSync(dir, { recursive: true, force: true });
  }
}
