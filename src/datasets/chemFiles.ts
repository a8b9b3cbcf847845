// Dataset uploads in the chemical formats that hold several structures besides SD files
// (SPEC §2.2 formats): CML documents of many molecules, SMILES and InChI files (one
// structure per line, an optional name after it) and Tripos mol2 files of many
// molecules. Each structure is one row; CML properties and line names become columns.
import { splitCml } from '../chem/index.ts';
import { BadRequest } from '../errors.ts';
import { ERR } from '../rdf/vocab.ts';
import { inferType, type InputRow, type InputTable, type StructureFormat } from './table.ts';

/** Rows with their named values turned into columns in first-seen order. */
function tableOf(records: Array<{ row: number; text: string; format: StructureFormat; values: Map<string, string> }>): InputTable {
  const titles: string[] = [];
  for (const r of records) for (const k of r.values.keys()) if (!titles.includes(k)) titles.push(k);
  const rows: InputRow[] = records.map((r) => ({ row: r.row, structure: { text: r.text, format: r.format }, values: titles.map((t) => r.values.get(t) || undefined) }));
  const columns = titles.map((title, i) => ({ title, type: inferType(rows.map((r) => r.values[i])) }));
  return { columns, rows, warnings: [] };
}

export function readCml(text: string): InputTable {
  const molecules = splitCml(text);
  if (molecules.length === 0) throw new BadRequest('chemical/x-cml upload: no <molecule> element found', { code: ERR.InvalidParameter });
  return tableOf(molecules.map((m) => ({ row: m.index, text: m.cml, format: 'cml', values: m.properties })));
}

/** SMILES or InChI, one per line; what follows the first white space is the line's name. */
export function readLines(text: string, format: 'smiles' | 'inchi'): InputTable {
  const records = text.split(/\r?\n/).flatMap((line, i) => {
    const [structure, ...rest] = line.trim().split(/\s+/);
    if (!structure || structure.startsWith('#')) return [];
    const name = rest.join(' ');
    return [{ row: i + 1, text: structure, format, values: new Map(name ? [['name', name]] : []) }];
  });
  return tableOf(records);
}

/** Tripos mol2: a record starts at each @<TRIPOS>MOLECULE; its name line names it. */
export function readMol2(text: string): InputTable {
  const blocks = text.split(/^(?=@<TRIPOS>MOLECULE)/m).filter((b) => b.startsWith('@<TRIPOS>MOLECULE'));
  return tableOf(blocks.map((block, i) => {
    const name = block.split(/\r?\n/)[1]?.trim();
    return { row: i + 1, text: block, format: 'mol2' as StructureFormat, values: new Map(name && name !== '*****' ? [['name', name]] : []) };
  }));
}
