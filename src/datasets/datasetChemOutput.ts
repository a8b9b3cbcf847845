// Dataset output that needs the compounds' structures: the SMILES
// column of CSV and chemical/x-mdl-sdfile with the values as data fields. Compounds of
// other services have no structure here: CSV leaves the cell empty, SDF skips the entry.
import { DataFactory } from 'n3';
import type { Deps } from '../deps.ts';
import { uriOf } from '../deps.ts';
import { parseStructure, sdfRecord } from '../chem/index.ts';
import type * as RDF from '@rdfjs/types';
import { SVC } from '../rdf/vocab.ts';
import { bound } from '../store/api.ts';
import { readStructureFile } from '../compounds/compoundFiles.ts';
import { storedSmiles } from '../compounds/compoundQuads.ts';
import { rowsOf, type DatasetView } from './datasetLayout.ts';
import { readFeatures } from '../features/features.ts';
import type { CsvExtra } from './datasetOutput.ts';
import { COMPOUND_FIELD } from './sdf.ts';

const { namedNode } = DataFactory;

const stored = async (deps: Deps, compound: string, p: RDF.NamedNode): Promise<string | undefined> =>
  (await deps.store.match(namedNode(compound), p, null, compound))[0]?.object.value;

/**
 * SMILES of the compounds of this service among `compounds` (one read for the chunk).
 * Only URIs under /compound/ can name one: other services' compounds are not queried.
 */
async function smilesOf(deps: Deps, compounds: readonly string[]): Promise<Array<string | undefined>> {
  const local = uriOf(deps.config, '/compound/');
  const unique = new Set<string>();
  for (const c of compounds) if (c.startsWith(local)) unique.add(c);
  const found = new Map<string, string>();
  if (unique.size > 0) {
    for (const row of await deps.store.select('compound-smiles', { compounds: { iris: [...unique] } })) found.set(bound(row, 'c'), bound(row, 'smiles'));
  }
  // A plain loop, not map(): see datasetCsv in datasetOutput.ts.
  const out = new Array<string | undefined>(compounds.length);
  for (let i = 0; i < compounds.length; i++) out[i] = found.get(compounds[i]!);
  return out;
}

/** The SMILES column of CSV output. */
export const smilesColumn = (deps: Deps): CsvExtra => ({ title: 'SMILES', values: (compounds) => smilesOf(deps, compounds) });

async function molfileOf(deps: Deps, compound: string): Promise<string | undefined> {
  const file = await stored(deps, compound, SVC.structureFile);
  if (file) return readStructureFile(deps, file);
  const smiles = await storedSmiles(deps, compound);
  return smiles ? parseStructure(smiles, 'smiles').molfile : undefined;
}

/** SD file: one record per entry with a structure, feature titles as data field names. */
export async function* datasetSdf(deps: Deps, view: DatasetView): AsyncGenerator<string> {
  const titles = (await readFeatures(deps, view.features)).map((info, j) => info?.title ?? view.features[j]);
  let out = '';
  for await (const row of rowsOf(deps, view)) {
    const molfile = await molfileOf(deps, row.compound);
    if (!molfile) continue;
    const fields: Record<string, string> = { [COMPOUND_FIELD]: row.compound };
    row.values.forEach((v, j) => {
      if (v !== undefined) fields[titles[j]!] = v.value; // one title per feature of the view, as values
    });
    out += sdfRecord(molfile, fields);
    if (out.length > 64 * 1024) {
      yield out;
      out = '';
    }
  }
  if (out) yield out;
}
