// Bit arithmetic over fingerprints packed as FP_WORDS 32-bit words.
import { FP_WORDS } from '../chem/fingerprints.ts';

/** Set bits of one 32-bit word (SWAR popcount). */
export function popcount32(v: number): number {
  v = v - ((v >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** Set bits of the fingerprint starting at word `offset` of `words`. */
export function popcount(words: Uint32Array, offset: number): number {
  let n = 0;
  for (let i = 0; i < FP_WORDS; i++) n += popcount32(words[offset + i]!);
  return n;
}

/** Bits set in both the query and the fingerprint at `offset`. */
export function commonBits(query: Uint32Array, words: Uint32Array, offset: number): number {
  let n = 0;
  for (let i = 0; i < FP_WORDS; i++) n += popcount32(query[i]! & words[offset + i]!);
  return n;
}

/** True when every bit of `query` is set in the fingerprint at `offset`. */
export function containsBits(query: Uint32Array, words: Uint32Array, offset: number): boolean {
  for (let i = 0; i < FP_WORDS; i++) {
    // `&` answers a signed int32, so compare missing bits with 0: a query word with bit 31
    // set would otherwise never equal its (negative) intersection.
    if ((query[i]! & ~words[offset + i]!) !== 0) return false;
  }
  return true;
}
