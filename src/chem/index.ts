// The chemistry API (DESIGN: src/chem is the only importer of chemistry toolkits).
// parseStructure and the writers are synchronous once initChem() has run in the thread,
// so worker threads call initChem() first and then parse in parallel.
import { loadToolkits } from './toolkits.ts';

export { formatOfMediaType, MEDIA, INPUT_MEDIA_TYPES, type ChemFormat, type ChemOutput } from './formats.ts';
export { parseStructure, smilesAtomCount, type ParsedStructure, type ParseOptions } from './parse.ts';
export { splitSdf, sdfRecord, type SdfRecord } from './sdf.ts';
export { splitCml, type CmlMolecule } from './cmlSplit.ts';

/**
 * Loads the WASM toolkits once in this thread (boot.ts and workers call it): RDKit always,
 * Indigo when one of `formats` (input or output formats) needs it.
 */
export async function initChem(formats: Iterable<string> = []): Promise<void> {
  await loadToolkits(formats);
}
