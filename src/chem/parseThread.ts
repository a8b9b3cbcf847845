// One thread of the structure parser (parseThreads.ts): parses each batch of structures the
// event loop sends and answers each structure as soon as it is parsed, one message each, in
// order. Its failures cross back as plain data, so a refused structure keeps its 400 and
// error code.
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

function parseOne(r: ParseRequest): ParseReply {
  try {
    return { ok: true, value: parseStructure(r.text, r.format, r.options) };
  } catch (e) {
    return { ok: false, error: plainError(e) };
  }
}

async function parseBatch(batch: ParseRequest[], answer: (reply: ParseReply) => void): Promise<void> {
  try {
    await initChem(new Set(batch.map((r) => r.format)));
  } catch (e) {
    for (let i = 0; i < batch.length; i++) answer({ ok: false, error: plainError(e) });
    return;
  }
  for (const r of batch) answer(parseOne(r));
}

// Batches are parsed in the order they come: one sent while another is being parsed waits in
// the port until this one is done (parseBatch never awaits once the toolkits are loaded), so
// the answers keep the order of the structures across batches.
let done: Promise<void> = Promise.resolve();
parentPort?.on('message', (batch: ParseRequest[]) => {
  done = done.then(() => parseBatch(batch, (reply) => parentPort?.postMessage(reply)));
});
