// Reading compounds and conformers: identity from the triples, structures from files
// (issue #3 §4), and each compound's default structure, its first conformer (SPEC §2.3).
import { DataFactory } from 'n3';
import type { Deps } from '../deps.ts';
import { NotFound } from '../http/errors.ts';
import { SVC } from '../rdf/vocab.ts';
import { molfileOfSmiles } from '../chem/write.ts';
import { compoundIndex } from './compoundIndex.ts';
import { compoundUri } from './compounds.ts';
import type { CompoundIdentity } from './compoundQuads.ts';
import { readStructureFile } from './compoundFiles.ts';

const { namedNode } = DataFactory;

export interface CompoundRecord extends CompoundIdentity {
  id: number;
  uri: string;
  /** Structure file of the compound itself (absent for structures given as SMILES/InChI). */
  file?: string;
}

export interface ConformerRecord {
  uri: string;
  number: number;
  file: string;
}

/** Parses a path segment as a compound or conformer number; 404 for anything else. */
export function numberOf(raw: string, what: string): number {
  if (!/^\d{1,12}$/.test(raw)) throw new NotFound(`no ${what} "${raw.slice(0, 40)}"`);
  return Number(raw);
}

export function compoundRecord(deps: Deps, id: number): CompoundRecord {
  const uri = compoundUri(deps, id);
  if (!compoundIndex(deps).has(id)) throw new NotFound(`no compound ${uri}`);
  const value = (p: typeof SVC.smiles) => deps.store.match(namedNode(uri), p, null, uri)[0]?.object.value;
  return {
    id, uri,
    smiles: value(SVC.smiles) ?? '',
    inchi: value(SVC.inchi) ?? '',
    inchiKey: value(SVC.inchiKey) ?? '',
    formula: value(SVC.formula) ?? '',
    molecularWeight: Number(value(SVC.molecularWeight) ?? 0),
    file: value(SVC.structureFile),
  };
}

export function conformerRecords(deps: Deps, compound: CompoundRecord): ConformerRecord[] {
  return deps.store.select('compound-conformers', { compound: namedNode(compound.uri) }).map((r) => ({
    uri: r.conformer.value,
    number: Number(r.number.value),
    file: r.file.value,
  }));
}

export function conformerRecord(deps: Deps, compound: CompoundRecord, n: number): ConformerRecord {
  const found = conformerRecords(deps, compound).find((c) => c.number === n);
  if (!found) throw new NotFound(`no conformer ${n} of compound ${compound.uri}`);
  return found;
}

/** The compound's own structure: its file, or a 2D layout of its SMILES. */
export async function ownMolfile(deps: Deps, compound: CompoundRecord): Promise<string> {
  return compound.file ? readStructureFile(deps.config, compound.file) : molfileOfSmiles(compound.smiles);
}

/** SPEC §2.3: the default structure is the first conformer, else the compound's own. */
export async function defaultMolfile(deps: Deps, compound: CompoundRecord): Promise<{ molfile: string; conformer?: ConformerRecord }> {
  const first = conformerRecords(deps, compound)[0];
  if (first) return { molfile: await readStructureFile(deps.config, first.file), conformer: first };
  return { molfile: await ownMolfile(deps, compound) };
}
