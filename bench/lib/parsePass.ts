// The toolkit's own parse of an upload's SMILES, as the dataset baselines time it: in the
// bench's process (bench/datasets.ts) and in its threads (bench/lib/parseThread.ts).
import { parseStructure, type ParseOptions } from '../../src/chem/index.ts';

/** Rows parsed untimed before a timed pass, so that the toolkit is measured warm. */
export const WARM_UP_ROWS = 1000;

/** Parses every one of `smiles` in this thread; unreadable ones count as parsed (the service reports them as warnings). */
export function parseAll(smiles: readonly string[], options: ParseOptions): void {
  for (const s of smiles) {
    try {
      parseStructure(s, 'smiles', options);
    } catch {
      // counted as parsed, above
    }
  }
}

/** Seconds this thread takes to parse every one of `smiles`, after an untimed pass over the first WARM_UP_ROWS. */
export function timeParse(smiles: readonly string[], options: ParseOptions): number {
  parseAll(smiles.slice(0, WARM_UP_ROWS), options);
  const started = performance.now();
  parseAll(smiles, options);
  return (performance.now() - started) / 1000;
}
