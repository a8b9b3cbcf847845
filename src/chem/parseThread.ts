// A thread of the request parser (parsePool.ts): parseStructure of one structure. Its
// failures cross back as plain data, so a refused structure keeps its 400 and error code.
import { initChem, parseStructure, type ChemFormat, type ParsedStructure, type ParseOptions } from './index.ts';
import { plainError, type PlainError } from '../errors.ts';

export interface ParseRequest {
  text: string;
  format: ChemFormat;
  options: ParseOptions;
}

export type ParseReply = { ok: true; value: ParsedStructure } | { ok: false; error: PlainError };

export default async function parseOne(r: ParseRequest): Promise<ParseReply> {
  try {
    await initChem([r.format]);
    return { ok: true, value: parseStructure(r.text, r.format, r.options) };
  } catch (e) {
    return { ok: false, error: plainError(e) };
  }
}
