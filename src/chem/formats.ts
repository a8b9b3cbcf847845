// The one table of chemical media types (SPEC §2.2): what each format is called on the
// wire, and which directions we support.
export type ChemFormat = 'smiles' | 'inchi' | 'molfile' | 'sdf' | 'mol2' | 'cml' | 'cdxml' | 'xyz';
/** Output-only representations beside the structure formats. */
export type ChemOutput = ChemFormat | 'inchikey' | 'png' | 'svg';

export const MEDIA = {
  smiles: 'chemical/x-daylight-smiles',
  inchi: 'chemical/x-inchi',
  inchikey: 'chemical/x-inchikey',
  molfile: 'chemical/x-mdl-molfile',
  sdf: 'chemical/x-mdl-sdfile',
  mol2: 'chemical/x-mol2',
  cml: 'chemical/x-cml',
  cdxml: 'chemical/x-chemdraw',
  xyz: 'chemical/x-xyz',
  png: 'image/png',
  svg: 'image/svg+xml',
} as const satisfies Record<ChemOutput, string>;

/** Other names clients send for the same formats (older OpenTox clients, file tools). */
const ALIASES: Record<string, ChemFormat> = {
  'chemical/x-smiles': 'smiles',
  'text/x-smiles': 'smiles',
  'chemical/x-inchi-string': 'inchi',
  'chemical/x-mdl-mol': 'molfile',
  'chemical/x-mdl-molfile-v3000': 'molfile',
  'chemical/x-sdf': 'sdf',
  'chemical/x-mdl-sdf': 'sdf',
  'chemical/x-tripos-mol2': 'mol2',
  'chemical/x-cdxml': 'cdxml',
  'application/x-cdxml': 'cdxml',
};

/** Formats accepted on input, in the order reports list them. */
export const INPUT_FORMATS: readonly ChemFormat[] = ['smiles', 'inchi', 'molfile', 'sdf', 'mol2', 'cml', 'cdxml'];

/** Human name of a format for error reports. */
export const FORMAT_NAMES: Record<ChemOutput, string> = {
  smiles: 'SMILES', inchi: 'InChI', inchikey: 'InChIKey', molfile: 'MDL molfile', sdf: 'SD file', mol2: 'Tripos mol2',
  cml: 'CML', cdxml: 'ChemDraw CDXML', xyz: 'XYZ', png: 'PNG image', svg: 'SVG image',
};

/** Structure format of a media type (parameters ignored), undefined if not chemical. */
export function formatOfMediaType(mediaType: string): ChemFormat | undefined {
  const t = mediaType.split(';')[0]!.trim().toLowerCase();
  const direct = (Object.keys(MEDIA) as ChemOutput[]).find((k) => MEDIA[k] === t);
  if (direct && direct !== 'png' && direct !== 'svg' && direct !== 'inchikey') return direct;
  return ALIASES[t];
}

/** Media types accepted on input (for UnsupportedMediaType reports). */
export const INPUT_MEDIA_TYPES: string[] = INPUT_FORMATS.map((f) => MEDIA[f]);
