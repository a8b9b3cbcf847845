// From an upload read into an InputTable to a stored dataset: structures
// become compounds, columns become features (reused where the source names ours), and
// every row that cannot be stored, every duplicate and every unreadable value becomes a
// warning on the dataset naming its row.
import type * as RDF from '@rdfjs/types';
import type { Deps } from '../deps.ts';
import { uriOf } from '../deps.ts';
import { isNumeric, type InputTable } from './table.ts';
import { resolveCompounds } from './datasetCompounds.ts';
import { ensureFeatures, readFeature, readFeatures } from '../features/features.ts';
import type { FeatureSpec } from '../features/featureModel.ts';
import { numberLiteral, stringLiteral, writeEntries, type DatasetMeta, type EntryData } from './datasetWrite.ts';

export interface ImportOptions {
  dataset: string;
  meta: DatasetMeta;
  signal?: AbortSignal;
  progress?: (percent: number) => void;
}

export interface ImportResult {
  entries: number;
  warnings: string[];
}

async function featuresOfTable(deps: Deps, table: InputTable, dataset: string): Promise<string[]> {
  const featurePrefix = uriOf(deps.config, '/feature/');
  const specs: FeatureSpec[] = [];
  const reused: Array<string | undefined> = [];
  for (const c of table.columns) reused.push(c.featureUri?.startsWith(featurePrefix) && (await readFeature(deps, c.featureUri)) ? c.featureUri : undefined);
  table.columns.forEach((c, i) => {
    if (reused[i]) return;
    const type = c.type ?? 'string';
    const accept = type === 'nominal' ? [...new Set(table.rows.map((r) => r.values[i]).filter((v): v is string => v !== undefined))].sort() : undefined;
    specs.push({ title: c.title, type, units: c.spec?.units, sameAs: c.spec?.sameAs, source: dataset, acceptValues: accept });
  });
  const minted = await ensureFeatures(deps, specs);
  let k = 0;
  return reused.map((u) => u ?? minted[k++]);
}

export async function importTable(deps: Deps, table: InputTable, options: ImportOptions): Promise<ImportResult> {
  const { dataset } = options;
  const warnings = table.warnings.map((w) => ({ ...w }));
  const compounds = await resolveCompounds(deps, table.rows, options.signal, (p: number) => options.progress?.(p * 0.5));
  const features = await featuresOfTable(deps, table, dataset);
  const numeric = (await readFeatures(deps, features)).map((f) => f?.type === 'numeric');
  const firstRow = new Map<string, number>();
  const entries: EntryData[] = [];
  table.rows.forEach((row, r) => {
    const compound = compounds[r];
    if (typeof compound !== 'string') {
      warnings.push({ row: row.row, message: `${compound.error}; row skipped` });
      return;
    }
    const seen = firstRow.get(compound);
    if (seen !== undefined) warnings.push({ row: row.row, message: `duplicate structure: same compound as row ${seen} (${compound}); both kept` });
    else firstRow.set(compound, row.row);
    const values = row.values.map((v, i): RDF.Literal | undefined => {
      if (v === undefined) return undefined;
      if (!numeric[i]) return stringLiteral(v);
      if (isNumeric(v)) return numberLiteral(Number(v));
      warnings.push({ row: row.row, message: `value ${JSON.stringify(v)} of numeric feature "${table.columns[i].title}" is not a number; value skipped` });
      return undefined;
    });
    entries.push({ compound, values });
  });
  const texts = warnings.sort((a, b) => a.row - b.row).map((w) => `row ${w.row}: ${w.message}`);
  const added = await writeEntries(deps, { dataset, features, entries, warnings: texts, meta: options.meta, signal: options.signal, progress: options.progress });
  return { entries: added, warnings: texts };
}
