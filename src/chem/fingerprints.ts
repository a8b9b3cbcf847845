// Fingerprints for structure search, computed with RDKit: Morgan radius 2 /
// 2048 bits for similarity, the pattern fingerprint for the substructure screen, and a
// pickle so a match never re-parses SMILES. Every WASM object is freed after use.
import initRDKitModule, { type MainModule, type Mol } from '@rdkit/rdkit';

export const FP_BITS = 2048;
/** 32-bit words per fingerprint. */
export const FP_WORDS = FP_BITS / 32;
/** RDKit's options of the Morgan fingerprint. */
export const MORGAN = JSON.stringify({ radius: 2, nBits: FP_BITS });
/** RDKit's options of the pattern fingerprint. */
export const PATTERN = JSON.stringify({ nBits: FP_BITS });
/** Changes whenever the fingerprint definition changes, so stored ones are recomputed. */
export const FP_VERSION = `morgan2-${FP_BITS}/pattern-${FP_BITS}`;

/** A structure the toolkit refused, with the position it names (1-based) when it names one. */
export class ToolkitParseError extends Error {
  constructor(message: string, readonly position?: number) {
    super(message);
    this.name = 'ToolkitParseError';
  }
}

let toolkit: MainModule | undefined;
let log: { get_buffer(): string; clear_buffer(): void } | null = null;

/** Loads RDKit once; call before any other function here. */
export async function initFingerprints(): Promise<MainModule> {
  if (!toolkit) {
    toolkit = await initRDKitModule();
    // RDKit reports parse errors only through its log: capture it to name the position.
    log = toolkit.set_log_capture('rdApp.*');
  }
  return toolkit;
}

export function searchToolkit(): MainModule {
  if (!toolkit) throw new Error('initFingerprints() has not been awaited');
  return toolkit;
}

/** Runs a toolkit parse; a null result becomes a ToolkitParseError with RDKit's words. */
export function parseWith(what: string, text: string, parse: (rd: MainModule) => Mol | null): Mol {
  const rd = searchToolkit();
  log?.clear_buffer();
  let mol: Mol | null;
  try {
    mol = parse(rd);
  } catch {
    mol = null;
  }
  if (mol && mol.is_valid()) return mol;
  mol?.delete();
  const { reason, position } = parseFailure(log?.get_buffer() ?? '', text);
  log?.clear_buffer();
  throw new ToolkitParseError(`invalid ${what} "${text}": ${reason}`, position);
}

/**
 * Why RDKit refused to parse `text`, from what it logged meanwhile: the reason (without the
 * log's time stamps, the echoed input and its caret) and the 1-based position it names.
 */
export function parseFailure(log: string, text: string): { reason: string; position?: number } {
  const lines = log.split('\n').map((l) => l.replace(/^\[[\d:]+\]\s*/, '').trim()).filter(Boolean);
  const position = /around position (\d+)/.exec(lines.join('\n'));
  const reason = lines.find((l) => !/check for mistakes|^~*\^$|Failed parsing/.test(l) && l !== text) ?? 'not understood';
  return { reason: reason.replace(/^(SMILES|SMARTS) Parse Error: /, ''), position: position ? Number(position[1]) : undefined };
}

function words(bytes: Uint8Array): Uint32Array {
  const out = new Uint32Array(FP_WORDS);
  new Uint8Array(out.buffer).set(bytes.subarray(0, FP_WORDS * 4));
  return out;
}

export interface StructureFingerprints {
  canonicalSmiles: string;
  morgan: Uint32Array;
  pattern: Uint32Array;
  /** RDKit's binary form of the molecule, read back by the substructure matcher. */
  pickle: Uint8Array;
}

/** Everything the search index keeps of one structure given as SMILES (or a molfile). */
export function fingerprintsOf(structure: string): StructureFingerprints {
  const mol = parseWith('SMILES', structure, (rd) => rd.get_mol(structure));
  try {
    return fingerprintsOfMol(mol, mol.get_smiles());
  } finally {
    mol.delete();
  }
}

/**
 * The same of a molecule already parsed (by any RDKit instance: only the molecule's own
 * methods are called), whose canonical SMILES is `canonicalSmiles`. Morgan and pattern bits
 * depend on the molecular graph, not on the atom order, so they equal fingerprintsOf's.
 */
export function fingerprintsOfMol(mol: Mol, canonicalSmiles: string): StructureFingerprints {
  return {
    canonicalSmiles,
    morgan: words(mol.get_morgan_fp_as_uint8array(MORGAN)),
    pattern: patternOf(mol),
    pickle: new Uint8Array(mol.get_as_uint8array()),
  };
}

/** The pattern fingerprint (the substructure screen) of a molecule. */
export function patternOf(mol: Mol): Uint32Array {
  return words(mol.get_pattern_fp_as_uint8array(PATTERN));
}

/** Canonical SMILES and standard InChIKey of a SMILES or InChI query (exact search). */
export function identityOf(text: string): { canonicalSmiles?: string; inchiKey?: string } {
  const rd = searchToolkit();
  if (/^InChI=/.test(text)) {
    const key = rd.get_inchikey_for_inchi(text);
    if (!key) throw new ToolkitParseError(`invalid InChI "${text}"`);
    return { inchiKey: key };
  }
  const mol = parseWith('SMILES', text, (r) => r.get_mol(text));
  try {
    const inchi = mol.get_inchi();
    return { canonicalSmiles: mol.get_smiles(), inchiKey: inchi ? rd.get_inchikey_for_inchi(inchi) || undefined : undefined };
  } finally {
    mol.delete();
  }
}

/** Morgan fingerprint of a similarity query (nothing else is computed). */
export function morganOf(smiles: string): Uint32Array {
  const mol = parseWith('SMILES', smiles, (rd) => rd.get_mol(smiles));
  try {
    return words(mol.get_morgan_fp_as_uint8array(MORGAN));
  } finally {
    mol.delete();
  }
}
