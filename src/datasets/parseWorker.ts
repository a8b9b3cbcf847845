// Runs in the task engine's worker threads (runInWorker(PARSE_WORKER, 'parseStructures',
// items)): parses a batch of upload structures so the event loop stays free and all cores
// parse at once. The molfile is written only for input with coordinates (only then does an
// upload store a structure file), and the search fingerprints are computed here, not on the
// event loop when the compound is indexed. All but the pattern fingerprint: as for a posted
// compound, the search index's matcher computes it once writes pause (src/search/engine.ts),
// and until then the compound passes every substructure screen. The upload's own CPU drops
// by a quarter and its dataset is ready sooner.
import { initChem, parseStructure, type ParsedStructure, type ParseOptions } from '../chem/index.ts';
import type { StructureFormat } from './table.ts';
import { checkCancelled } from '../tasks/cancellation.ts';

/** This module, for runInWorker. */
export const PARSE_WORKER = new URL(import.meta.url);

export type ParseResult = ParsedStructure | { error: string };

const UPLOAD_PARSE: ParseOptions = { molfile: 'withCoordinates', fingerprints: 'withoutPattern' };

export async function parseStructures(items: Array<{ text: string; format: StructureFormat }>): Promise<ParseResult[]> {
  // initChem loads each toolkit once per thread: Indigo only for a batch whose formats need it.
  await initChem(new Set(items.map((i) => i.format)));
  return items.map(({ text, format }) => {
    // Outside the try: a cancelled upload stops here instead of failing every structure.
    checkCancelled();
    try {
      return parseStructure(text, format, UPLOAD_PARSE);
    } catch (e) {
      return { error: (e as Error).message };
    }
  });
}
