// One thread of the structure parser (parseThreads.ts): parses each batch of structures the
// event loop sends and answers one reply per structure, in order. Its failures cross back as
// plain data, so a refused structure keeps its 400 and error code.
import { parentPort } from 'node:worker_threads';
import { initChem, parseStructure, type ChemFormat, type ParsedStructure, type ParseOptions } from './index.ts';
import { plainError, type PlainError } from '../errors.ts';

/** What the event loop asks: parseStructure's arguments (its options are plain data). */
export interface ParseRequest {
  text: string;
  format: ChemFormat;
  options: ParseOptions;
}

export type ParseReply = { ok: true; value: ParsedStructure } | { ok: false; error: PlainError };

async function parseBatch(batch: ParseRequest[]): Promise<ParseReply[]> {
  try {
    await initChem(new Set(batch.map((r) => r.format)));
  } catch (e) {
    return batch.map(() => ({ ok: false, error: plainError(e) }));
  }
  return batch.map((r): ParseReply => {
    try {
      return { ok: true, value: parseStructure(r.text, r.format, r.options) };
    } catch (e) {
      return { ok: false, error: plainError(e) };
    }
  });
}

// The event loop sends a thread its next batch only after the reply to the last one.
parentPort?.on('message', (batch: ParseRequest[]) => {
  void parseBatch(batch).then((replies) => parentPort?.postMessage(replies));
});
