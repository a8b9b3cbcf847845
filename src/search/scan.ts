// The two scans over the index, run in slot ranges so a long search can
// yield to the event loop between chunks and stop when its client has gone.
import { FP_WORDS } from '../chem/fingerprints.ts';
import { commonBits, containsBits, popcount } from './bits.ts';
import type { StructureIndex } from './index.ts';

export interface SimilarityHit {
  slot: number;
  similarity: number;
}

/** Restricts a scan to some slots (a dataset's compounds); undefined means all. */
export type SlotFilter = Uint8Array | undefined;

/**
 * Tanimoto hits at or above `threshold` in slots [from, to). With a and b the popcounts,
 * T = c / (a + b - c) <= min(a, b) / max(a, b), so a slot whose count is out of that
 * bound is skipped without touching its words.
 */
export function similarityScan(index: StructureIndex, query: Uint32Array, threshold: number, from: number, to: number, filter: SlotFilter, out: SimilarityHit[]): void {
  const a = popcount(query, 0);
  if (a === 0) return;
  const low = Math.ceil(a * threshold - 1e-9);
  const high = Math.floor(a / threshold + 1e-9);
  const { counts, morgan } = index;
  for (let slot = from; slot < to; slot++) {
    const b = counts[slot]!;
    if (b < low || b > high || b === 0) continue;
    if (filter && !filter[slot]) continue;
    const c = commonBits(query, morgan, slot * FP_WORDS);
    const t = c / (a + b - c);
    if (t >= threshold) out.push({ slot, similarity: t });
  }
}

/** Slots in [from, to) whose pattern fingerprint holds every bit of the query's. */
export function screenScan(index: StructureIndex, query: Uint32Array, from: number, to: number, filter: SlotFilter, out: number[]): void {
  const { pattern, uris } = index;
  for (let slot = from; slot < to; slot++) {
    if (uris[slot] === undefined) continue;
    if (filter && !filter[slot]) continue;
    if (containsBits(query, pattern, slot * FP_WORDS)) out.push(slot);
  }
}

/** Most similar first; equal similarities in storage order, so pages are stable. */
export function bySimilarity(x: SimilarityHit, y: SimilarityHit): number {
  return y.similarity - x.similarity || x.slot - y.slot;
}
