// Writers: one stored structure (a molfile plus its identity) in every output format of
// SPEC §2.2. RDKit writes SMILES, InChI and molfiles; Indigo writes CML and CDXML; mol2
// and xyz are written here (by hand only what no package does).
import { BadRequest } from '../errors.ts';
import { ERR } from '../rdf/vocab.ts';
import type { ChemOutput } from './formats.ts';
import { indigo, rdkitMol, withMol } from './toolkits.ts';
import { setChiralFlag } from './molfile.ts';
import { sdfRecord } from './sdf.ts';
import { molfileToMol2 } from './mol2.ts';
import { readCtab } from './ctab.ts';
import { parseStructure } from './parse.ts';

export interface StructureRecord {
  molfile: string;
  smiles: string;
  inchi: string;
  inchiKey: string;
  formula: string;
  molecularWeight: number;
  /** Title line of molfiles and name of mol2/xyz records (the URI, usually). */
  title?: string;
  /** SD data items written after the molfile. */
  fields?: Record<string, string>;
}

/** Text formats; images are written by depict.ts. */
export type TextOutput = Exclude<ChemOutput, 'png' | 'svg'>;

export function writeStructure(s: StructureRecord, format: TextOutput): string {
  switch (format) {
    case 'smiles': return s.smiles + '\n';
    case 'inchi': return requireInchi(s).inchi + '\n';
    case 'inchikey': return requireInchi(s).inchiKey + '\n';
    case 'molfile': return withTitle(s.molfile, s.title);
    case 'sdf': return sdfRecord(withTitle(s.molfile, s.title), s.fields ?? identityFields(s));
    case 'mol2': return molfileToMol2(s.molfile, s.title ?? '');
    case 'cml': return viaIndigo(s.molfile, 'chemical/x-cml');
    case 'cdxml': return viaIndigo(s.molfile, 'chemical/x-cdxml');
    case 'xyz': return molfileToXyz(s.molfile, s.title ?? s.smiles);
  }
}

/** The SD data items every compound carries (sdfile with data fields). */
export function identityFields(s: StructureRecord): Record<string, string> {
  const fields: Record<string, string> = { SMILES: s.smiles };
  if (s.inchi) Object.assign(fields, { InChI: s.inchi, InChIKey: s.inchiKey });
  return { ...fields, Formula: s.formula, MolecularWeight: String(s.molecularWeight) };
}

/**
 * The record with its InChI; one stored without (a dative bond, before they were written
 * as charge-separated bonds) gets it from its SMILES read again. 400 only when InChI cannot
 * describe the structure at all.
 */
function requireInchi(s: StructureRecord): StructureRecord {
  if (s.inchi) return s;
  let again: { inchi: string; inchiKey: string } | undefined;
  try {
    again = parseStructure(s.smiles, 'smiles');
  } catch {
    again = undefined;
  }
  if (!again?.inchi) throw new BadRequest('InChI cannot describe this structure (e.g. it has query or dummy atoms)', { code: ERR.UnsupportedFormat });
  return { ...s, inchi: again.inchi, inchiKey: again.inchiKey };
}

/** Molfile with its first (title) line replaced. */
export function withTitle(molfile: string, title?: string): string {
  if (title === undefined) return molfile;
  const nl = molfile.indexOf('\n');
  return title.replace(/[\r\n]/g, ' ').slice(0, 80) + (nl >= 0 ? molfile.slice(nl) : '\n');
}

function viaIndigo(molfile: string, type: string): string {
  const ind = indigo();
  const options = new ind.MapStringString();
  try {
    return ind.convert(molfile, type, options);
  } finally {
    options.delete();
  }
}

/** XYZ: atom count, a comment line, then element and coordinates (needs 3D coordinates). */
export function molfileToXyz(molfile: string, comment: string): string {
  const ctab = readCtab(molfile);
  const lines = [String(ctab.atoms.length), comment.replace(/[\r\n]/g, ' ')];
  for (const a of ctab.atoms) lines.push(`${a.symbol.padEnd(2)} ${a.x.toFixed(5).padStart(12)} ${a.y.toFixed(5).padStart(12)} ${a.z.toFixed(5).padStart(12)}`);
  return lines.join('\n') + '\n';
}

/** True when a molfile's atoms are not all in one plane z = 0. */
export function molfileIs3D(molfile: string): boolean {
  return /3D/.test(molfile.split('\n')[1] ?? '') || readCtab(molfile).atoms.some((a) => Math.abs(a.z) > 1e-4);
}

/** A 2D molfile of a SMILES (for compounds stored without a file), chiral flag set. */
export function molfileOfSmiles(smiles: string): string {
  const { mol, log } = rdkitMol(smiles);
  if (!mol) throw new Error(`stored SMILES ${smiles} does not parse: ${log}`);
  return withMol(mol, (m) => setChiralFlag(m.get_molblock(), smiles.includes('@')));
}

/** Standard InChI of a molfile (to compare structures, e.g. a conformer and its compound). */
export function inchiOfMolfile(molfile: string): string {
  const { mol } = rdkitMol(molfile, { removeHs: false });
  if (!mol) return '';
  return withMol(mol, (m) => m.get_inchi());
}

