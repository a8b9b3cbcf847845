// parseStructure: any input format → one validated structure with its identity
// (canonical SMILES, standard InChI and InChIKey) and a molfile. RDKit is the source of
// truth (strict valence checks); Indigo reads InChI, CML and CDXML for it.
import type { Mol } from '@rdkit/rdkit';
import { BadRequest } from '../errors.ts';
import { ERR } from '../rdf/vocab.ts';
import { FORMAT_NAMES, type ChemFormat } from './formats.ts';
import { indigo, isWasmCrash, rdkit, rdkitMol, restartRdkit, withMol } from './toolkits.ts';
import { checkMolfile, setChiralFlag } from './molfile.ts';
import { splitSdf } from './sdf.ts';
import { mol2ToMolfile } from './mol2.ts';
import { symbolOf, weightOf } from './elements.ts';
import { withoutDativeBonds } from './dative.ts';
import { fingerprintsOfMol, type StructureFingerprints } from './fingerprints.ts';

export interface ParsedStructure {
  /** Canonical SMILES (RDKit), stereo kept. */
  smiles: string;
  /** Standard InChI and InChIKey; '' when InChI cannot describe the structure (e.g. R groups). */
  inchi: string;
  inchiKey: string;
  /**
   * V2000 (V3000 past 999 atoms), chiral flag set; input coordinates kept when present.
   * '' when parsed with `molfile: 'withCoordinates'` from input without coordinates.
   */
  molfile: string;
  formula: string;
  molecularWeight: number;
  /** True when the input carried 3D coordinates (a conformer candidate). */
  is3D?: boolean;
  /** True when the molfile keeps the input's own coordinates (molfile, SD file, mol2). */
  hasCoords?: boolean;
  /** Search fingerprints of `smiles` (as fingerprintsOf computes them), when asked for. */
  fingerprints?: StructureFingerprints;
}

/** Longest SMILES accepted: longer input is a mistake, not a molecule (10 MB). */
export const MAX_SMILES_LENGTH = 100_000;

const fail = (format: ChemFormat, message: string, details?: string) =>
  new BadRequest(`${FORMAT_NAMES[format]}: ${message}`, { code: ERR.InvalidStructure, details });

/**
 * Most atoms accepted: RDKit's WASM build overflows its stack on chains of ~700 atoms, and
 * such a crash leaves the toolkit unusable, so larger input is refused before it gets there.
 */
export const MAX_ATOMS = 500;

/** WebAssembly.Exception (a C++ exception crossing into JS): in Node 20, missing from its types. */
const WasmException = (WebAssembly as unknown as { Exception?: abstract new () => object }).Exception;

export interface ParseOptions {
  /**
   * 'withCoordinates': write the molfile only when the input carried coordinates. An upload
   * stores a structure file only then (a drawing from SMILES is made when asked for), and
   * writing the molblock costs as much as the InChI.
   */
  molfile?: 'always' | 'withCoordinates';
  /**
   * Compute the search fingerprints too, from the molecule the SMILES is written from (no
   * second parse): the thread that parses a structure to store it does, so the event loop
   * never computes them.
   */
  fingerprints?: boolean;
}

/** What describe() writes besides the identity. */
interface Wanted {
  molfile: boolean;
  fingerprints: boolean;
}

/** Parses one structure; throws BadRequest naming the format and what failed. */
export function parseStructure(text: string, format: ChemFormat, options: ParseOptions = {}): ParsedStructure {
  if (!text || !text.trim()) throw fail(format, 'empty input: expected one structure');
  if (/[\u0000-\u0008\u000e-\u001f\ufffd]/.test(text)) throw fail(format, 'input is binary data, not text');
  try {
    return parseText(text, format, { molfile: options.molfile !== 'withCoordinates', fingerprints: options.fingerprints ?? false });
  } catch (e) {
    // A C++ exception thrown inside a toolkit (a failed precondition on odd input) is a
    // refusal of this input; the toolkit itself stays usable.
    if (WasmException && e instanceof WasmException) throw fail(format, 'the chemistry toolkit cannot read this structure');
    if (!isWasmCrash(e)) throw e;
    restartRdkit();
    throw fail(format, 'the structure is too large or complex for the chemistry toolkit');
  }
}

/** Refuses structures past MAX_ATOMS (see there) before RDKit sees them. */
function checkSize(format: ChemFormat, atoms: number): void {
  if (atoms > MAX_ATOMS) throw fail(format, `${atoms} atoms is more than the limit of ${MAX_ATOMS}`);
}

/** Atom tokens of a SMILES (bracket atoms, two-letter halogens, organic subset). */
export const smilesAtomCount = (smiles: string): number => smiles.match(/\[[^\]]*\]|Br|Cl|[BCNOPSFI]|[bcnops]/g)?.length ?? 0;

/** Atom count of a molfile from its counts line (V2000) or COUNTS line (V3000). */
const molfileAtomCount = (molfile: string): number => {
  const lines = molfile.split(/\r?\n/);
  const v3 = lines.find((l) => l.startsWith('M  V30 COUNTS'));
  return Number(v3 ? v3.split(/\s+/)[3] : (lines[3] ?? '').slice(0, 3)) || 0;
};

function parseText(text: string, format: ChemFormat, want: Wanted): ParsedStructure {
  switch (format) {
    case 'smiles': return fromSmiles(text, want);
    case 'inchi': return fromIndigo(text.trim(), 'inchi', /^InChI=/, want);
    case 'cml': return fromIndigo(text.trim(), 'cml', /^</, want);
    case 'cdxml': return fromIndigo(text.trim(), 'cdxml', /^</, want);
    case 'molfile': return fromMolfileText(text, 'molfile', want);
    case 'sdf': return fromMolfileText(text, 'sdf', want);
    case 'mol2': return fromMolfile(mol2ToMolfile(text), 'mol2', want);
    case 'xyz':
      throw fail('xyz', 'XYZ carries no bonds or charges, so it cannot define a structure; send a molfile instead (a 3D molfile makes a conformer)');
  }
}

function fromSmiles(text: string, want: Wanted): ParsedStructure {
  const lines = text.split(/\r?\n/).map((l) => l.trim()).filter(Boolean);
  if (lines.length > 1) throw fail('smiles', `${lines.length} lines: expected one SMILES (post several structures to /dataset)`);
  // parseStructure refused empty text, so there is a first line with a first word.
  const smiles = lines[0]!.split(/\s+/)[0]!;
  if (smiles.length > MAX_SMILES_LENGTH) throw fail('smiles', `${smiles.length} characters is longer than the limit of ${MAX_SMILES_LENGTH}`);
  checkSize('smiles', smilesAtomCount(smiles));
  const { mol, log } = rdkitMol(smiles);
  if (!mol) throw fail('smiles', `"${abbreviate(smiles)}" is not a valid structure${log ? `: ${log}` : ''}`);
  return describe(mol, 'smiles', false, want);
}

function fromMolfileText(text: string, format: 'molfile' | 'sdf', want: Wanted): ParsedStructure {
  const records = splitSdf(text);
  if (records.length > 1) {
    throw fail(format, `${records.length} records: expected one structure (post multi-record SD files to /dataset)`);
  }
  return fromMolfile(records[0]?.molfile ?? text, format, want);
}

function fromMolfile(molfile: string, format: ChemFormat, want: Wanted): ParsedStructure {
  try {
    checkMolfile(molfile);
  } catch (e) {
    throw fail(format, (e as Error).message.replace(/^MDL molfile: /, ''));
  }
  const atoms = molfileAtomCount(molfile);
  // RDKit reads an empty connection table, then fails an internal check on it (and prints
  // that check to the console): said here in the words the other formats use.
  if (atoms === 0) throw fail(format, 'no atoms');
  checkSize(format, atoms);
  const { mol, log } = rdkitMol(molfile, { removeHs: false });
  if (!mol) throw fail(format, `not a valid structure${log ? `: ${log}` : ''}`);
  const coords = mol.has_coords();
  const is3D = coords === 3;
  // 3D input keeps its hydrogens (a conformer needs them); 2D input is drawn without.
  if (!is3D) mol.remove_hs_in_place('{}');
  return { ...describe(mol, format, is3D, { ...want, molfile: true }), hasCoords: coords > 0 };
}

/** InChI, CML and CDXML: Indigo reads them, RDKit checks and canonicalises the result. */
function fromIndigo(input: string, format: ChemFormat, looksRight: RegExp, want: Wanted): ParsedStructure {
  let text = input;
  if (!looksRight.test(text)) {
    throw fail(format, format === 'inchi' ? 'does not start with "InChI="' : `not XML: expected "<" at the start, got "${abbreviate(text, 20)}"`);
  }
  if (format === 'cml') text = tidyCml(text);
  const ind = indigo();
  const options = new ind.MapStringString();
  let smiles: string;
  try {
    smiles = ind.convert(text, 'chemical/x-daylight-smiles', options);
  } catch (e) {
    throw fail(format, 'cannot be read', String((e as Error).message ?? e).replace(/\s+/g, ' ').slice(0, 500));
  } finally {
    options.delete();
  }
  // Indigo reads a molecule without atoms (an empty CML atomArray) as ''; RDKit would throw on it.
  if (!smiles.trim()) throw fail(format, 'no atoms');
  checkSize(format, smilesAtomCount(smiles));
  const { mol, log } = rdkitMol(smiles.trim());
  if (!mol) throw fail(format, `read as "${abbreviate(smiles)}", which is not a valid structure${log ? `: ${log}` : ''}`);
  return describe(mol, format, false, want);
}

/** CML as CDK writes it: one molecule, atom references without padding (Indigo needs that). */
function tidyCml(text: string): string {
  const molecules = text.match(/<(\w+:)?molecule[\s>]/g)?.length ?? 0;
  if (molecules > 1) throw fail('cml', `${molecules} molecules: expected one structure (post several structures to /dataset)`);
  return text.replace(/atomRefs(2|4)="([^"]*)"/g, (_m, n: string, refs: string) => `atomRefs${n}="${refs.trim().split(/\s+/).join(' ')}"`);
}

/**
 * Identity, molfile (unless `withMolfile` is false), formula and weight of a parsed
 * molecule; frees it. RDKit's JSON of the molecule is written once, for both the dative
 * bond check and the formula.
 */
function describe(parsed: Mol, format: ChemFormat, is3D: boolean, want: Wanted): ParsedStructure {
  const parsedJson = parsed.get_json();
  const mol = withoutDativeBonds(parsed, is3D, parsedJson);
  const json = mol === parsed ? parsedJson : mol.get_json();
  if (mol !== parsed) parsed.delete();
  return withMol(mol, (m) => {
    if (m.get_num_atoms() === 0) throw fail(format, 'no atoms');
    const rd = rdkit();
    const inchi = m.get_inchi();
    const inchiKey = inchi ? rd.get_inchikey_for_inchi(inchi) : '';
    // The SMILES (and the fingerprints) are written from the molecule without hydrogens.
    const { smiles, fingerprints } = is3D ? withMol(rd.get_mol(m.remove_hs('{}'))!, (h) => writtenFrom(h, want)) : writtenFrom(m, want);
    const molfile = want.molfile ? setChiralFlag(m.get_molblock(), smiles.includes('@')) : '';
    const { formula, weight } = formulaOf(json);
    return { smiles, inchi, inchiKey, molfile, formula, molecularWeight: weight, is3D, ...(fingerprints && { fingerprints }) };
  });
}

/** The canonical SMILES of `h` and, when wanted, its search fingerprints. */
function writtenFrom(h: Mol, want: Wanted): { smiles: string; fingerprints?: StructureFingerprints } {
  const smiles = h.get_smiles();
  return { smiles, fingerprints: want.fingerprints ? fingerprintsOfMol(h, smiles) : undefined };
}

interface JsonAtom { z?: number; impHs?: number; chg?: number; isotope?: number }

/** Hill formula (with net charge) and average molecular weight from RDKit's JSON. */
export function formulaOf(json: string): { formula: string; weight: number } {
  const doc = JSON.parse(json) as { defaults: { atom: JsonAtom }; molecules: Array<{ atoms: JsonAtom[] }> };
  const def = doc.defaults.atom;
  const counts = new Map<string, number>();
  let weight = 0;
  let charge = 0;
  for (const mol of doc.molecules) {
    for (const a of mol.atoms) {
      const z = a.z ?? def.z ?? 6;
      const hs = a.impHs ?? def.impHs ?? 0;
      const isotope = a.isotope ?? def.isotope ?? 0;
      const symbol = symbolOf(z);
      counts.set(symbol, (counts.get(symbol) ?? 0) + 1);
      if (hs) counts.set('H', (counts.get('H') ?? 0) + hs);
      weight += (isotope || weightOf(z)) + hs * weightOf(1);
      charge += a.chg ?? def.chg ?? 0;
    }
  }
  const symbols = [...counts.keys()].sort();
  const order = counts.has('C') ? ['C', ...(counts.has('H') ? ['H'] : []), ...symbols.filter((s) => s !== 'C' && s !== 'H')] : symbols;
  let formula = order.map((s) => s + (counts.get(s) === 1 ? '' : counts.get(s))).join('');
  if (charge) formula += (Math.abs(charge) === 1 ? '' : Math.abs(charge)) + (charge > 0 ? '+' : '-');
  return { formula, weight: Math.round(weight * 1000) / 1000 };
}

function abbreviate(s: string, n = 80): string {
  return s.length > n ? s.slice(0, n) + '…' : s;
}
