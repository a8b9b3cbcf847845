// Bit arithmetic over fingerprints packed as FP_WORDS 32-bit words (counting and
// Tanimoto are the similarity kernel's, in fingerprintSet.ts).
import { FP_WORDS } from '../chem/fingerprints.ts';

/** True when every bit of `query` is set in the fingerprint at `offset`. */
export function containsBits(query: Uint32Array, words: Uint32Array, offset: number): boolean {
  for (let i = 0; i < FP_WORDS; i++) {
    // `&` answers a signed int32, so compare missing bits with 0: a query word with bit 31
    // set would otherwise never equal its (negative) intersection.
    if ((query[i]! & ~words[offset + i]!) !== 0) return false;
  }
  return true;
}
