// Representations of compounds and conformers (SPEC §2.2): every chemical
// format, PNG and SVG depictions, a URI list and RDF. SD file is the default (
// served when Accept names nothing we have).
import type * as RDF from '@rdfjs/types';
import { rdfVariants, uriListVariant, type Reply, type Variant } from '../http/reply.ts';
import { initChem, MEDIA } from '../chem/index.ts';
import { writeStructure, molfileIs3D, type StructureRecord, type TextOutput } from '../chem/write.ts';
import { depictPng, depictSvg } from '../chem/depict.ts';

export interface ImageSize {
  w: number;
  h: number;
}

/** Text formats offered for one structure, in negotiation order (the first is the default). */
const SINGLE: TextOutput[] = ['sdf', 'smiles', 'inchi', 'inchikey', 'molfile', 'mol2', 'cml', 'cdxml', 'xyz'];
/** Formats that hold several records, for "get all conformers". */
const MULTI: TextOutput[] = ['sdf', 'smiles', 'inchi', 'mol2', 'xyz'];

export interface StructureSource {
  /** Identity and title; the molfile is read only for formats that need it. */
  record: Omit<StructureRecord, 'molfile'>;
  molfile: () => Promise<string>;
  /** 3D molfile for xyz when the molfile is 2D (generated on demand). */
  threeD: () => Promise<string>;
}

/** Formats written from the identity alone, without reading a structure file. */
const FROM_IDENTITY: ReadonlySet<TextOutput> = new Set(['smiles', 'inchi', 'inchikey']);

/** One compound or conformer in every format. */
export function structureReply(source: StructureSource, uri: string, quads: () => RDF.Quad[], size: ImageSize, depends?: readonly string[]): Reply {
  const { record } = source;
  const variants: Variant[] = SINGLE.map((format) => ({
    type: MEDIA[format],
    produce: async () => {
      await initChem([format]);
      if (FROM_IDENTITY.has(format)) return writeStructure({ ...record, molfile: '' }, format);
      const molfile = await source.molfile();
      if (format === 'xyz' && !molfileIs3D(molfile)) return writeStructure({ ...record, molfile: await source.threeD() }, 'xyz');
      return writeStructure({ ...record, molfile }, format);
    },
  }));
  variants.push(...imageVariants(source.molfile, size), uriListVariant([uri]), ...rdfVariants(quads));
  return { status: 200, headers: {}, variants, depends };
}

export function imageVariants(structure: () => Promise<string>, size: ImageSize): Variant[] {
  return [
    { type: MEDIA.png, produce: async () => depictPng(await structure(), size.w, size.h) },
    { type: MEDIA.svg, produce: async () => depictSvg(await structure(), size.w, size.h) },
  ];
}

/** Several structures (all conformers) as one multi-record file, a URI list and RDF. */
export function structuresReply(records: StructureRecord[], uris: string[], quads: () => RDF.Quad[], headers: Record<string, string>): Reply {
  const variants: Variant[] = MULTI.map((format) => ({
    type: MEDIA[format],
    produce: async () => {
      await initChem([format]);
      return records.map((r) => writeStructure(r, format)).join('');
    },
  }));
  variants.push(uriListVariant(uris), ...rdfVariants(quads));
  return { status: 200, headers, variants };
}
