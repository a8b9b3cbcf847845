// chemical/x-mdl-sdfile uploads: each record's molfile is a structure, its
// data fields (> <NAME>) become features. A record without an "M  END" line is skipped
// with a warning naming it; the records around it still load.
import { inferType, type InputTable } from './table.ts';

interface SdfRecord {
  index: number;
  molfile: string;
  fields: Map<string, string>;
}

const FIELD_HEADER = /^>.*<([^>]+)>/;

/**
 * The data field in which the service's own SD files (GET /dataset/{id} as
 * chemical/x-mdl-sdfile) name each record's compound: read as its identity, not a feature.
 */
export const COMPOUND_FIELD = 'compound_uri';

/** Splits an SD file into records (1-based), keeping the molfile and its data fields. */
export function* sdfRecords(text: string): Generator<SdfRecord | { index: number; error: string }> {
  const lines = text.split(/\r?\n/);
  let start = 0;
  let index = 0;
  for (let i = 0; i <= lines.length; i++) {
    if (i < lines.length && !lines[i]!.startsWith('$$$$')) continue;
    const block = lines.slice(start, i);
    start = i + 1;
    if (block.every((l) => l.trim() === '')) continue;
    index++;
    const end = block.findIndex((l) => l.startsWith('M  END'));
    if (end < 0) {
      yield { index, error: 'no "M  END" line: not a molfile record' };
      continue;
    }
    yield { index, molfile: block.slice(0, end + 1).join('\n') + '\n', fields: dataFields(block.slice(end + 1)) };
  }
}

function dataFields(lines: string[]): Map<string, string> {
  const fields = new Map<string, string>();
  for (let i = 0; i < lines.length; i++) {
    const m = FIELD_HEADER.exec(lines[i]!);
    if (!m) continue;
    const value: string[] = [];
    while (i + 1 < lines.length && lines[i + 1]!.trim() !== '') value.push(lines[++i]!);
    // FIELD_HEADER's one group takes part in every match.
    fields.set(m[1]!.trim(), value.join('\n').trim());
  }
  return fields;
}

export function readSdf(text: string): InputTable {
  const table: InputTable = { columns: [], rows: [], warnings: [] };
  const columnOf = new Map<string, number>();
  const records: SdfRecord[] = [];
  for (const rec of sdfRecords(text)) {
    if ('error' in rec) table.warnings.push({ row: rec.index, message: `${rec.error}; record skipped` });
    else records.push(rec);
  }
  for (const rec of records) {
    for (const name of rec.fields.keys()) {
      if (name === COMPOUND_FIELD) continue;
      if (!columnOf.has(name)) {
        columnOf.set(name, table.columns.length);
        table.columns.push({ title: name });
      }
    }
  }
  for (const rec of records) {
    const values = new Array<string | undefined>(table.columns.length).fill(undefined);
    for (const [name, v] of rec.fields) if (v !== '' && name !== COMPOUND_FIELD) values[columnOf.get(name)!] = v;
    const compoundUri = rec.fields.get(COMPOUND_FIELD) || undefined;
    table.rows.push({ row: rec.index, structure: { text: rec.molfile, format: 'molfile' }, ...(compoundUri ? { compoundUri } : {}), values });
  }
  table.columns.forEach((c, i) => {
    c.type = inferType(table.rows.map((r) => r.values[i]));
  });
  return table;
}
