// Substructure results kept between the pages of one search: the screened candidates and
// the hits matched so far, so the next page goes on matching where the last one stopped
// instead of starting again (following every rel="next" link costs one search, not one a
// page). Bounded in number and age, and valid for one state of the index only.
import { createHash } from 'node:crypto';

/** One search in progress: candidates[0, next) are matched; `hits` are the slots that matched, in slot order. */
export interface SubstructCursor {
  readonly key: string;
  /** The index state (SearchEngine's write count) the candidates were screened in. */
  readonly version: number;
  readonly candidates: Int32Array;
  next: number;
  readonly hits: number[];
  /** Runs one page's matching at a time, so two pages of a search never match the same candidates. */
  lock: Promise<void>;
  used: number;
}

/** Searches kept; the oldest used goes first. */
const MAX_CURSORS = 16;
/** A search not paged on for this long is dropped. */
const MAX_AGE_MS = 5 * 60_000;

export class SubstructCursors {
  private readonly cursors = new Map<string, SubstructCursor>();

  /** The key of a query over a scope: all compounds, or the listed ones (a dataset's). */
  static keyOf(kind: string, text: string, within: readonly string[] | undefined): string {
    if (!within) return `${kind}\n${text}\n*`;
    const hash = createHash('sha256');
    for (const uri of within) hash.update(uri + '\n');
    return `${kind}\n${text}\n${hash.digest('base64')}`;
  }

  /** The cursor of `key` made in index state `version`, if kept. */
  get(key: string, version: number, now = Date.now()): SubstructCursor | undefined {
    const cursor = this.cursors.get(key);
    if (!cursor) return undefined;
    if (cursor.version !== version || now - cursor.used > MAX_AGE_MS) {
      this.cursors.delete(key);
      return undefined;
    }
    cursor.used = now;
    // Map order is the order of use: re-insert as the newest.
    this.cursors.delete(key);
    this.cursors.set(key, cursor);
    return cursor;
  }

  create(key: string, version: number, candidates: Int32Array, now = Date.now()): SubstructCursor {
    const cursor: SubstructCursor = { key, version, candidates, next: 0, hits: [], lock: Promise.resolve(), used: now };
    this.cursors.delete(key);
    this.cursors.set(key, cursor);
    while (this.cursors.size > MAX_CURSORS) this.cursors.delete(this.cursors.keys().next().value!);
    return cursor;
  }

  /** Forgets every search (the index changed). */
  clear(): void {
    this.cursors.clear();
  }
}
