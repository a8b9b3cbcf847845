// Runs in the task engine's worker threads: reads a stored upload file into a table, so
// parsing a large CSV, SD file or RDF document never blocks the event loop.
import { readFile } from 'node:fs/promises';
import { readTable, type UploadKind } from './readTable.ts';
import type { InputTable } from './table.ts';

export async function readTableFile(input: { kind: UploadKind; file: string; baseIri: string }): Promise<InputTable> {
  return readTable(input.kind, await readFile(input.file), input.baseIri);
}
