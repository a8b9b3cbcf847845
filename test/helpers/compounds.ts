// Small helpers for compound integration tests.
export const SMILES = 'chemical/x-daylight-smiles';

/** A fetch body from text or bytes (Node's Buffer is not a BodyInit to TypeScript). */
export const bodyOf = (body: string | Buffer): string | Blob => (typeof body === 'string' ? body : new Blob([new Uint8Array(body)]));

export async function postStructure(base: string, body: string | Buffer, type = SMILES, path = '/compound'): Promise<Response> {
  return fetch(base + path, { method: 'POST', headers: { 'Content-Type': type, Accept: 'text/uri-list' }, body: bodyOf(body) });
}

/** URI of a new or existing compound; throws unless the service answered 200. */
export async function createCompound(base: string, smiles: string): Promise<string> {
  const res = await postStructure(base, smiles);
  const text = await res.text();
  if (res.status !== 200) throw new Error(`POST /compound ${smiles}: ${res.status} ${text}`);
  return text.trim();
}

/** Width and height from a PNG's IHDR chunk. */
export function pngSize(png: Buffer): { w: number; h: number } {
  return { w: png.readUInt32BE(16), h: png.readUInt32BE(20) };
}

export const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47]);
