// text/uri-list uploads (RFC 2483): one compound URI per line, # lines are comments.
import { isValidIri } from '../store/binder.ts';
import type { InputTable } from './table.ts';

export function readUriList(text: string): InputTable {
  const table: InputTable = { columns: [], rows: [], warnings: [] };
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (!line || line.startsWith('#')) return;
    if (!isValidIri(line)) table.warnings.push({ row: i + 1, message: `not a URI: ${JSON.stringify(line.slice(0, 100))}; skipped` });
    else table.rows.push({ row: i + 1, compoundUri: line, values: [] });
  });
  return table;
}
