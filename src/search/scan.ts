// The two scans over the index, run in slot ranges so a long search can
// yield to the event loop between chunks and stop when its client has gone.
import { FP_WORDS } from '../chem/fingerprints.ts';
import { containsBits } from './bits.ts';
import type { StructureIndex } from './index.ts';

export interface SimilarityHit {
  slot: number;
  similarity: number;
}

/** Restricts a scan to some slots (a dataset's compounds); undefined means all. */
export type SlotFilter = Uint8Array | undefined;

/** Tanimoto hits at or above `threshold` in slots [from, to) (the kernel skips by popcount). */
export function similarityScan(index: StructureIndex, query: Uint32Array, threshold: number, from: number, to: number, filter: SlotFilter, out: SimilarityHit[]): void {
  const { rows, similarities } = index.morgan.atLeast(query, threshold, from, to);
  for (let i = 0; i < rows.length; i++) {
    const slot = rows[i]!;
    if (!filter || filter[slot]) out.push({ slot, similarity: similarities[i]! });
  }
}

/** Slots in [from, to) whose pattern fingerprint holds every bit of the query's. */
export function screenScan(index: StructureIndex, query: Uint32Array, from: number, to: number, filter: SlotFilter, out: number[]): void {
  const { pattern } = index;
  for (let slot = from; slot < to; slot++) {
    if (!index.holds(slot)) continue;
    if (filter && !filter[slot]) continue;
    if (containsBits(query, pattern, slot * FP_WORDS)) out.push(slot);
  }
}

/** Most similar first; equal similarities in storage order, so pages are stable. */
export function bySimilarity(x: SimilarityHit, y: SimilarityHit): number {
  return y.similarity - x.similarity || x.slot - y.slot;
}
