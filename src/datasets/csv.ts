// text/csv uploads: a SMILES, InChI or compound URI column found by its
// header; every other column becomes a feature whose type is inferred from its values.
// Files named text/csv are often tab- or semicolon-separated (spreadsheet exports in
// locales with a decimal comma): the delimiter is the one the header line uses.
import { parse } from 'csv-parse/sync';
import { BadRequest } from '../errors.ts';
import { ERR } from '../rdf/vocab.ts';
import { inferType, type InputRow, type InputTable, type StructureFormat } from './table.ts';
import { unguardFormula } from '../rdf/csvCell.ts';

type KeyKind = StructureFormat | 'uri';

/** Which header names a structure or compound column; the first match wins. */
const KEY_HEADERS: Array<[RegExp, KeyKind]> = [
  [/^(compound|compound[ _-]?uri|uri|url)$/i, 'uri'],
  [/smiles/i, 'smiles'],
  [/^(std)?inchi$/i, 'inchi'],
];

function keyColumn(header: string[], first: string[] | undefined): { index: number; kind: KeyKind } {
  for (const [pattern, kind] of KEY_HEADERS) {
    const index = header.findIndex((h) => pattern.test(h));
    if (index >= 0) return { index, kind };
  }
  const inchi = first?.findIndex((v) => v.startsWith('InChI=')) ?? -1;
  if (inchi >= 0) return { index: inchi, kind: 'inchi' };
  throw new BadRequest(`no structure column: the CSV header (${header.map((h) => JSON.stringify(h)).join(', ')}) names no SMILES, InChI or compound URI column`, {
    code: ERR.NoStructureColumn,
    details: 'Name the structure column SMILES (or InChI, or compound for compound URIs).',
  });
}

/** Some files quote SMILES with single quotes ('CCO'); they are not part of the structure. */
const unquote = (v: string): string => (v.length > 1 && v.startsWith("'") && v.endsWith("'") ? v.slice(1, -1).trim() : v);

export type Delimiter = ',' | '\t' | ';';

const DELIMITERS: Delimiter[] = [',', '\t', ';'];

/** The delimiter the header line uses most, outside quotes; a comma when it uses none. */
export function detectDelimiter(text: string): Delimiter {
  const header = text.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0]!.replace(/"[^"]*"/g, '');
  const count = (d: string) => header.split(d).length - 1;
  let best: Delimiter = ',';
  for (const d of DELIMITERS) if (count(d) > count(best)) best = d;
  return best;
}

export function readCsv(text: string, delimiter: Delimiter = detectDelimiter(text)): InputTable {
  let records: Array<{ record: string[]; info: { lines: number } }>;
  try {
    records = parse(text, { bom: true, delimiter, trim: true, relax_column_count: true, relax_quotes: true, skip_empty_lines: true, info: true }) as never;
  } catch (e) {
    const err = e as Error & { lines?: number };
    throw new BadRequest(`malformed CSV${err.lines ? ` at line ${err.lines}` : ''}: ${err.message}`, { code: ERR.BadRequest });
  }
  // The apostrophe that guards a formula-like cell in the service's own CSV is not part of the value.
  for (const { record } of records) for (let i = 0; i < record.length; i++) record[i] = unguardFormula(record[i]!);
  if (records.length === 0) throw new BadRequest('empty CSV: expected a header line and rows', { code: ERR.NoStructureColumn });
  const header = records[0]!.record; // records is not empty (checked above)
  if (records.length === 1) throw new BadRequest('no rows: the CSV has a header line and nothing else', { code: ERR.BadRequest });
  const key = keyColumn(header, records[1]?.record);
  // The service's own CSV (GET /dataset/{id} as text/csv) is "Compound,SMILES,...": the
  // SMILES there is the compound's structure, not a feature, so a re-upload adds none.
  const smiles = key.kind === 'uri' ? header.indexOf('SMILES') : -1;
  const featureIndexes = header.map((_, i) => i).filter((i) => i !== key.index && i !== smiles);
  const table: InputTable = { columns: featureIndexes.map((i) => ({ title: header[i] || `column ${i + 1}`, position: i + 1 })), rows: [], warnings: [], keyColumn: key.index };
  for (const { record, info } of records.slice(1)) {
    const line = info.lines;
    if (record.length > header.length) {
      table.warnings.push({ row: line, message: `${record.length} fields where the header has ${header.length}; row skipped` });
      continue;
    }
    const keyValue = unquote(record[key.index] ?? '');
    const structure = smiles >= 0 ? record[smiles] ?? '' : '';
    if (!keyValue && !structure) {
      table.warnings.push({ row: line, message: `no ${key.kind === 'uri' ? 'compound URI' : key.kind.toUpperCase()} in column "${header[key.index]}"; row skipped` });
      continue;
    }
    const row: InputRow = { row: line, values: featureIndexes.map((i) => (record[i] === undefined || record[i] === '' ? undefined : record[i])) };
    if (key.kind !== 'uri') row.structure = { text: keyValue, format: key.kind };
    else {
      if (keyValue) row.compoundUri = keyValue;
      if (structure) row.structure = { text: structure, format: 'smiles' };
    }
    table.rows.push(row);
  }
  table.columns.forEach((c, i) => {
    c.type = inferType(table.rows.map((r) => r.values[i]));
  });
  return table;
}
