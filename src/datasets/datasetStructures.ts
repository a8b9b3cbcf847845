// Upload structures → compound URIs: parsed in batches across the worker pool, then
// stored as compounds in one bulk commit (ensureCompounds). A structure the toolkit
// cannot read becomes an error for its row, not a failed upload.
import type { Deps } from '../deps.ts';
import type { ParsedStructure } from '../chem/index.ts';
import type { InputRow } from './table.ts';
import type { ParseResult } from './parseWorker.ts';
import { ensureCompounds } from '../compounds/compounds.ts';

const WORKER = new URL('./parseWorker.ts', import.meta.url);
/** Structures per worker call: large enough to amortise the hop, small enough to spread. */
const BATCH = 250;

type Structure = NonNullable<InputRow['structure']>;

export async function structuresToCompounds(deps: Deps, structures: readonly Structure[], signal?: AbortSignal, progress?: (percent: number) => void, owner?: string): Promise<Array<string | { error: string }>> {
  const batches: Structure[][] = [];
  for (let i = 0; i < structures.length; i += BATCH) batches.push(structures.slice(i, i + BATCH));
  let done = 0;
  const parsed = (await Promise.all(batches.map(async (batch) => {
    const out = await deps.tasks.runInWorker<ParseResult[]>(WORKER, 'parseStructures', batch, { signal });
    progress?.((100 * (done += batch.length)) / structures.length);
    return out;
  }))).flat();
  const good = parsed.filter((p): p is ParsedStructure => !('error' in p));
  const uris = await ensureCompounds(deps, good, owner);
  let k = 0;
  return parsed.map((p) => ('error' in p ? { error: p.error } : uris[k++]));
}
