// Upload media type → reader: CSV, SD files, CML, SMILES, InChI and mol2 files,
// text/uri-list and RDF in every syntax of the format table. Multipart files sent as
// octet-stream are known by extension.
import { BadRequest, UnsupportedMediaType } from '../errors.ts';
import { RDF_MEDIA_TYPES, syntaxOf, type RdfSyntax } from '../rdf/formats.ts';
import { parseRdf } from '../rdf/parse.ts';
import { readCsv } from './csv.ts';
import { readRdfDataset } from './rdfDataset.ts';
import { readSdf } from './sdf.ts';
import type { InputTable } from './table.ts';
import { readUriList } from './uriList.ts';
import { readCml, readLines, readMol2 } from './chemFiles.ts';

export type UploadKind = 'csv' | 'tsv' | 'sdf' | 'urilist' | 'cml' | 'smiles' | 'inchi' | 'mol2' | RdfSyntax;

const BY_TYPE: Record<string, UploadKind> = {
  'text/csv': 'csv',
  'application/csv': 'csv',
  'text/comma-separated-values': 'csv',
  // IANA text/tab-separated-values: the tab is the delimiter, whatever the header holds.
  'text/tab-separated-values': 'tsv',
  'chemical/x-mdl-sdfile': 'sdf',
  'chemical/x-sdf': 'sdf',
  'text/uri-list': 'urilist',
  'chemical/x-cml': 'cml',
  'chemical/x-daylight-smiles': 'smiles',
  'chemical/x-inchi': 'inchi',
  'chemical/x-mol2': 'mol2',
};

const BY_EXTENSION: Record<string, UploadKind> = {
  csv: 'csv', tsv: 'tsv', tab: 'tsv', sdf: 'sdf', sd: 'sdf', uri: 'urilist', uris: 'urilist', rdf: 'rdfxml', owl: 'rdfxml', xml: 'rdfxml',
  ttl: 'turtle', nt: 'ntriples', ntriples: 'ntriples', n3: 'n3', jsonld: 'jsonld',
  cml: 'cml', smi: 'smiles', smiles: 'smiles', inchi: 'inchi', mol2: 'mol2',
};

export const UPLOAD_MEDIA_TYPES = ['text/csv', 'text/tab-separated-values', 'chemical/x-mdl-sdfile', 'chemical/x-cml', 'chemical/x-daylight-smiles', 'chemical/x-inchi', 'chemical/x-mol2', 'text/uri-list', ...RDF_MEDIA_TYPES];

export function uploadKind(type: string, filename?: string): UploadKind {
  const kind = BY_TYPE[type] ?? syntaxOf(type) ?? (filename ? BY_EXTENSION[filename.toLowerCase().split('.').pop() ?? ''] : undefined);
  if (!kind) throw new UnsupportedMediaType(type, UPLOAD_MEDIA_TYPES);
  return kind;
}

export async function readTable(kind: UploadKind, data: Buffer, baseIri: string): Promise<InputTable> {
  if (data.length === 0) throw new BadRequest('empty upload: expected a dataset');
  const text = data.toString('utf8');
  switch (kind) {
    case 'csv':
      return readCsv(text);
    case 'tsv':
      return readCsv(text, '\t');
    case 'sdf':
      return readSdf(text);
    case 'urilist':
      return readUriList(text);
    case 'cml':
      return readCml(text);
    case 'smiles':
    case 'inchi':
      return readLines(text, kind);
    case 'mol2':
      return readMol2(text);
    default:
      return readRdfDataset(await parseRdf(text, kind, baseIri));
  }
}
