// In-memory algorithm tables from the shared CSV files (first column SMILES), for unit
// tests that run algorithms without the dataset service.
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import type { Table } from '../../src/algorithms/table.ts';
import { sharedData } from './data.ts';

export function csvTable(file: string, limit = Infinity): Table {
  const rows = parse(readFileSync(sharedData('opentox-test', file), 'utf8'), { trim: true, relax_column_count: true }) as string[][];
  const [header, ...body] = rows;
  const data = body.filter((r) => r[0]).slice(0, limit);
  const base = `http://example.org/dataset/${file}`;
  const columns = header!.slice(1).map((title, j) => ({
    uri: `${base}/feature/${j + 1}`,
    title,
    numeric: data.every((r) => r[j + 1] === undefined || r[j + 1] === '' || Number.isFinite(Number(r[j + 1]))),
  }));
  return {
    datasetUri: base,
    compounds: data.map((_, i) => `http://example.org/compound/${i + 1}`),
    smiles: data.map((r) => r[0]!),
    columns,
    values: data.map((r) => columns.map((c, j) => {
      const v = r[j + 1];
      if (v === undefined || v === '') return null;
      return c.numeric ? Number(v) : v;
    })),
  };
}
