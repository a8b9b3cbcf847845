// Structure search over the index: exact, similarity and substructure. Scans run
// in chunks of slots, yielding to the event loop between them, stop early once the page
// is full, and stop when the caller's signal aborts (the client disconnected).
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import path from 'node:path';
import { FP_VERSION, ToolkitParseError, fingerprintsOf, identityOf, initFingerprints, morganOf, searchToolkit, type StructureFingerprints } from '../chem/fingerprints.ts';
import { screenOf, type QueryKind } from '../chem/smarts.ts';
import { BadRequest, ServiceUnavailable } from '../errors.ts';
import { ERR } from '../rdf/vocab.ts';
import { StructureIndex } from './index.ts';
import { IndexFile } from './indexFile.ts';
import { MatcherPool, MatchTimeout } from './matcherPool.ts';
import { SubstructCursors, type SubstructCursor } from './substructCursors.ts';
import { bySimilarity, screenScan, similarityScan, type SimilarityHit, type SlotFilter } from './scan.ts';
import { SizedLru } from '../util/sizedLru.ts';

const SCAN_CHUNK = 16_384;
/** Slots a similarity scan does between yields to the event loop (a few ms in the kernel). */
const SIMILARITY_CHUNK = 262_144;
/** Most candidates one matcher is sent at once. */
const MATCH_CHUNK = 4_096;
/** Query fingerprints kept by query text (a client paging through hits asks the same query once a page). */
const QUERY_FINGERPRINTS = 256;

export interface SearchOptions {
  /** Only these compounds (a dataset's); undefined searches all. */
  within?: readonly string[];
  /** Stop after this many results (paging asks for offset + page size). */
  limit?: number;
  /** Substructure search: the first `offset` results are left out (they still count towards `limit`). */
  offset?: number;
  signal?: AbortSignal;
}

export interface Hit {
  uri: string;
  similarity?: number;
}

export interface StoredStructure {
  uri: string;
  /** Canonical SMILES, as the parse that stored the compound wrote it (an exact search compares it). */
  smiles: string;
  inchiKey?: string;
}

export class SearchEngine {
  readonly index = new StructureIndex();
  /** True when the file holds more or other than the index (compacted by reconcile). */
  private stale = false;
  private readonly pool: MatcherPool;
  private readonly cursors = new SubstructCursors();
  /** Counts changes of the index: a kept substructure result is valid for one count only. */
  private writes = 0;
  /** Morgan fingerprints of recent similarity queries: parsing one costs about a tenth of a scan over 100,000 compounds. */
  private readonly queryFingerprints = new SizedLru<Uint32Array>(QUERY_FINGERPRINTS, () => 1);

  private constructor(private readonly file: IndexFile | undefined, private readonly timeoutMs: number, workers: number, moleculeCache: number, private readonly base: () => string) {
    this.pool = new MatcherPool(workers, moleculeCache);
  }

  /**
   * Loads the toolkit and the index file under `dataDir` (none: memory only). URIs under
   * `baseUrl()` are kept relative to it, so the index survives a change of public base.
   */
  static async open(options: { dataDir?: string; timeoutMs: number; workers: number; moleculeCache?: number; baseUrl?: () => string }): Promise<SearchEngine> {
    const rd = await initFingerprints();
    const file = options.dataDir ? new IndexFile(path.join(options.dataDir, 'search', 'structures.idx'), `${FP_VERSION} rdkit-${rd.version()}`) : undefined;
    const engine = new SearchEngine(file, options.timeoutMs, options.workers, options.moleculeCache ?? 0, options.baseUrl ?? (() => ''));
    if (file) engine.index.readFrom(file);
    const loaded = file?.load(engine.index);
    engine.stale = !loaded?.loaded || loaded.garbage > 0;
    return engine;
  }

  /**
   * Makes the index hold exactly `stored` (the compounds in the triple store): entries of
   * compounds that are gone are dropped, missing or changed ones recomputed. Then the
   * file is compacted. Answers how many entries were recomputed.
   */
  reconcile(stored: Iterable<StoredStructure>): number {
    const keep = new Set<string>();
    let computed = 0;
    for (const stored1 of stored) {
      const s = { ...stored1, uri: this.keyOf(stored1.uri) };
      keep.add(s.uri);
      const slot = this.index.slotOf(s.uri);
      const known = slot === undefined ? undefined : this.index.entry(slot);
      if (known && (s.inchiKey ? known.inchiKey === s.inchiKey : known.canonicalSmiles === s.smiles)) continue;
      if (this.tryAdd(s, false)) computed++;
    }
    let removed = 0;
    for (const uri of this.index.keys()) if (!keep.has(uri) && this.index.remove(uri)) removed++;
    if (removed > 0) this.changed();
    // Rewriting 100k entries takes a while: only when the file is not already exact.
    if (this.stale || computed > 0 || removed > 0) this.file?.rewrite(this.index);
    this.stale = false;
    return computed;
  }

  /**
   * Called when a compound is stored or its structure replaced. `fingerprints`, when given,
   * were computed with the parse that wrote `smiles` (parseStructure's fingerprints option,
   * in the thread that parsed it); without them they are computed here, so that the next
   * search finds the compound.
   */
  indexCompound(uri: string, smiles: string, inchiKey?: string, fingerprints?: StructureFingerprints): void {
    this.tryAdd({ uri: this.keyOf(uri), smiles, inchiKey }, true, fingerprints);
  }

  /** Called when a compound is deleted. */
  removeCompound(uri: string): void {
    const key = this.keyOf(uri);
    if (!this.index.remove(key)) return;
    this.changed();
    this.file?.appendRemove(key);
  }

  /** URIs of compounds with the identity of `text` (SMILES, InChI or InChIKey), in storage order. */
  async exact(text: string, options: SearchOptions = {}): Promise<string[]> {
    const query = text.trim();
    const keys = /^[A-Z]{14}-[A-Z]{10}-[A-Z]$/.test(query) ? { inchiKey: query } : this.parse(() => identityOf(query), 'SMILES');
    const within = options.within ? new Set(options.within) : undefined;
    return this.index.lookup(keys).map((slot) => this.uriOf(this.index.uriAt(slot)!)).filter((u) => !within || within.has(u));
  }

  /** Compounds with Tanimoto similarity >= threshold, most similar first. */
  async similar(smiles: string, threshold: number, options: SearchOptions = {}): Promise<Hit[]> {
    const query = this.queryFingerprint(smiles);
    const filter = this.filterOf(options.within);
    const hits: SimilarityHit[] = [];
    for (let from = 0; from < this.index.slots; from += SIMILARITY_CHUNK) {
      similarityScan(this.index, query, threshold, from, Math.min(from + SIMILARITY_CHUNK, this.index.slots), filter, hits);
      if (from + SIMILARITY_CHUNK < this.index.slots) await this.pause(options.signal);
    }
    hits.sort(bySimilarity);
    const found: Hit[] = [];
    // Between chunks compounds may have been removed: only those still stored are answered.
    for (const h of hits) {
      const uri = this.index.uriAt(h.slot);
      if (uri === undefined) continue;
      if (found.length === (options.limit ?? Infinity)) break;
      found.push({ uri: this.uriOf(uri), similarity: h.similarity });
    }
    return found;
  }

  /** The Morgan fingerprint of a similarity query (the kernel only reads it). */
  private queryFingerprint(smiles: string): Uint32Array {
    let fp = this.queryFingerprints.get(smiles);
    if (!fp) {
      fp = this.parse(() => morganOf(smiles), 'SMILES');
      this.queryFingerprints.set(smiles, fp);
    }
    return fp;
  }

  /**
   * Compounds that contain the query, in storage order, from `options.offset` (default 0) to
   * `options.limit`. The screened candidates and the hits matched so far are kept for the
   * next page of the same search (substructCursors.ts), which goes on from there.
   */
  async substructure(kind: QueryKind, text: string, options: SearchOptions = {}): Promise<Hit[]> {
    const limit = options.limit ?? Infinity;
    const key = SubstructCursors.keyOf(kind, text, options.within);
    // A kept search's query was read when it was made: the next pages do not read it again.
    const cursor = this.cursors.get(key, this.writes) ?? this.cursors.create(key, this.writes, await this.screened(this.parse(() => screenOf(kind, text), kind === 'smarts' ? 'SMARTS' : 'SMILES'), options));
    // One page of a search matches at a time; the next waits and finds the hits it needs.
    const turn = cursor.lock.then(() => this.matchUntil(cursor, kind, text, limit, options.signal));
    cursor.lock = turn.catch(() => undefined);
    await turn;
    const found: Hit[] = [];
    for (let i = options.offset ?? 0; i < cursor.hits.length && found.length < limit - (options.offset ?? 0); i++) {
      // The index may have changed since the candidates were screened: only compounds still stored.
      const uri = this.index.uriAt(cursor.hits[i]!);
      if (uri !== undefined) found.push({ uri: this.uriOf(uri) });
    }
    return found;
  }

  /** Slots whose pattern fingerprint holds the query's, in storage order. */
  private async screened(screen: Uint32Array, options: SearchOptions): Promise<Int32Array> {
    const filter = this.filterOf(options.within);
    const candidates: number[] = [];
    for (let from = 0; from < this.index.slots; from += SCAN_CHUNK) {
      screenScan(this.index, screen, from, Math.min(from + SCAN_CHUNK, this.index.slots), filter, candidates);
      if (from + SCAN_CHUNK < this.index.slots) await this.pause(options.signal);
    }
    return Int32Array.from(candidates);
  }

  /** Matches the cursor's candidates, a batch on every matcher at once, until it holds `limit` hits or none are left. */
  private async matchUntil(cursor: SubstructCursor, kind: QueryKind, text: string, limit: number, signal: AbortSignal | undefined): Promise<void> {
    let budget = this.timeoutMs;
    const { candidates } = cursor;
    while (cursor.hits.length < limit && cursor.next < candidates.length) {
      this.checkAborted(signal);
      // A page stops soon after it is full: a batch of a few times the candidates the hit rate so
      // far says it needs, and no smaller than all matched so far, so a search paged to its end
      // makes few batches (each is a round trip to every matcher; the next pages use the rest).
      const rate = cursor.next === 0 ? 1 : Math.max(cursor.hits.length / cursor.next, 0.01);
      const wanted = Math.max(Math.ceil((4 * (limit - cursor.hits.length)) / rate), cursor.next);
      const size = Math.min(MATCH_CHUNK * this.pool.size, Math.max(64 * this.pool.size, wanted), candidates.length - cursor.next);
      const slots = candidates.subarray(cursor.next, cursor.next + size);
      const started = performance.now();
      const matched = await this.matchChunk(kind, text, slots, budget);
      budget -= performance.now() - started;
      // Pages of one search run one after the other (the lock): `next` is still this page's.
      for (const m of matched) cursor.hits.push(slots[m]!);
      cursor.next += size;
    }
  }

  async close(): Promise<void> {
    this.file?.close();
    await this.pool.close();
  }

  private async matchChunk(kind: QueryKind, text: string, slots: Int32Array, budget: number): Promise<Uint32Array> {
    try {
      if (budget <= 0) throw new MatchTimeout(this.timeoutMs);
      return await this.pool.match(kind, text, slots, (some) => this.index.pickles(some), budget);
    } catch (e) {
      if (!(e instanceof MatchTimeout)) throw e;
      throw new ServiceUnavailable(`substructure search for ${kind === 'smarts' ? 'SMARTS' : 'SMILES'} "${text}" was stopped after its time limit of ${this.timeoutMs} ms`, {
        code: ERR.QueryTimeout,
        details: 'The pattern takes too long to match against the stored structures. Use a more specific pattern, or raise SEARCH_TIMEOUT_MS.',
        retryAfterSeconds: 1,
        cause: e,
      });
    }
  }

  private tryAdd(s: StoredStructure, persist: boolean, computed?: StructureFingerprints): boolean {
    let fps;
    try {
      fps = computed ?? fingerprintsOf(s.smiles);
    } catch (e) {
      // A structure RDKit cannot read stays findable by nothing but its identity keys.
      if (!(e instanceof ToolkitParseError)) throw e;
      if (this.index.remove(s.uri)) {
        this.changed();
        if (persist) this.file?.appendRemove(s.uri);
      }
      return false;
    }
    const entry = { uri: s.uri, canonicalSmiles: fps.canonicalSmiles, inchiKey: s.inchiKey, morgan: fps.morgan, pattern: fps.pattern, pickle: fps.pickle };
    this.index.add(entry, persist ? this.file?.append(entry) : undefined);
    this.changed();
    return true;
  }

  /** The index changed: kept substructure results no longer hold. */
  private changed(): void {
    this.writes++;
    this.cursors.clear();
  }

  private parse<T>(fn: () => T, what: string): T {
    try {
      return fn();
    } catch (e) {
      if (!(e instanceof ToolkitParseError)) throw e;
      const at = e.position === undefined ? '' : ` (at position ${e.position})`;
      throw new BadRequest(e.message + at, {
        code: what === 'SMARTS' ? ERR.InvalidSmarts : ERR.InvalidStructure,
        details: `The toolkit (RDKit ${searchToolkit().version()}) could not read the ${what}${at}.`,
      });
    }
  }

  private filterOf(within: readonly string[] | undefined): SlotFilter {
    if (!within) return undefined;
    const filter = new Uint8Array(this.index.slots);
    for (const uri of within) {
      const slot = this.index.slotOf(this.keyOf(uri));
      if (slot !== undefined) filter[slot] = 1;
    }
    return filter;
  }

  /** The index's key of a URI: relative to the public base when under it. */
  private keyOf(uri: string): string {
    const base = this.base();
    return base && uri.startsWith(base + '/') ? uri.slice(base.length) : uri;
  }

  private uriOf(key: string): string {
    return key.startsWith('/') ? this.base() + key : key;
  }

  private async pause(signal: AbortSignal | undefined): Promise<void> {
    await yieldToLoop();
    this.checkAborted(signal);
  }

  private checkAborted(signal: AbortSignal | undefined): void {
    if (signal?.aborted) throw new ServiceUnavailable('search cancelled: the client disconnected', { code: ERR.QueryTimeout });
  }
}
