// Runs in the task engine's worker threads (runInWorker): parses a batch of upload
// structures so the event loop stays free and all cores parse at once.
import { initChem, parseStructure, type ParsedStructure } from '../chem/index.ts';
import type { StructureFormat } from './table.ts';
import { checkCancelled } from '../tasks/cancellation.ts';

let ready: Promise<void> | undefined;

export type ParseResult = ParsedStructure | { error: string };

export async function parseStructures(items: Array<{ text: string; format: StructureFormat }>): Promise<ParseResult[]> {
  await (ready ??= initChem());
  return items.map(({ text, format }) => {
    // Outside the try: a cancelled upload stops here instead of failing every structure.
    checkCancelled();
    try {
      return parseStructure(text, format);
    } catch (e) {
      return { error: (e as Error).message };
    }
  });
}
