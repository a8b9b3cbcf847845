// Parsing in worker threads (uploads parse in parallel): TaskEngine.runInWorker(
// PARSE_WORKER, 'parseMany', { texts, format }) answers one outcome per text, in order.
import { loadToolkits } from './toolkits.ts';
import { parseStructure, type ParsedStructure } from './parse.ts';
import type { ChemFormat } from './formats.ts';
import { checkCancelled } from '../tasks/cancellation.ts';

export const PARSE_WORKER = new URL(import.meta.url);

export type ParseOutcome =
  | { ok: true; structure: ParsedStructure }
  | { ok: false; message: string; details?: string };

/**
 * Loads the toolkits in this thread and parses one structure with its search fingerprints,
 * so that the thread's first real call does not pay for it (WorkerPool.warm).
 */
export async function warmUp(): Promise<void> {
  await loadToolkits(['smiles']);
  parseStructure('Oc1ccccc1', 'smiles', { fingerprints: true });
}

export async function parseMany(input: { texts: string[]; format: ChemFormat }): Promise<ParseOutcome[]> {
  await loadToolkits([input.format]);
  return input.texts.map((text) => {
    // Outside the try: a cancelled upload stops here instead of failing every structure.
    checkCancelled();
    try {
      return { ok: true, structure: parseStructure(text, input.format) };
    } catch (e) {
      const err = e as { message: string; details?: string };
      return { ok: false, message: err.message, details: err.details };
    }
  });
}
