// Structure search over the index: exact, similarity and substructure. Scans run
// in chunks of slots, yielding to the event loop between them, stop early once the page
// is full, and stop when the caller's signal aborts (the client disconnected).
import { setImmediate as yieldToLoop } from 'node:timers/promises';
import path from 'node:path';
import { FP_VERSION, FP_WORDS, MORGAN, PATTERN, ToolkitParseError, fingerprintsOf, identityOf, initFingerprints, morganOf, searchToolkit, type StructureFingerprints } from '../chem/fingerprints.ts';
import { screenOf, type QueryKind } from '../chem/smarts.ts';
import { BadRequest, ServiceUnavailable } from '../errors.ts';
import { ERR } from '../rdf/vocab.ts';
import { StructureIndex, UNKNOWN_PATTERN } from './index.ts';
import { IndexFile } from './indexFile.ts';
import { MatcherPool, MatchTimeout } from './matcherPool.ts';
import { bySimilarity, screenScan, similarityScan, type SimilarityHit, type SlotFilter } from './scan.ts';

const SCAN_CHUNK = 16_384;
const MATCH_CHUNK = 2_048;

/*
 * The search fingerprints of a posted compound are computed after the POST is answered: a
 * client that posts compounds waits for none of them, and they cost a third as much again
 * as the parse and InChI the POST needs. An upload's parse threads give the Morgan
 * fingerprint and the pickle, and leave out the pattern, which costs more than the parse
 * and InChI together.
 *
 * A compound without any (`unindexed`) is in no scan until they are computed: a similarity
 * or substructure search first brings the index up to date but for the patterns (catchUp),
 * so none misses it; an exact search looks such compounds up by the identity keys they
 * already have. A compound without its pattern has a screen with every bit set, so every
 * substructure search matches it exactly (no hit is lost, the search is only slower). The
 * matcher processes compute both once posts pause for FILL_QUIET_MS, or at once when a
 * backlog is waiting. An upload holds them back while it stores its compounds (holdFills):
 * the gap between two of its batches can pass for a pause, and a fill then takes a core
 * from the threads parsing the upload.
 */
export const FILL_QUIET_MS = 500;
const FILL_BACKLOG = 20_000;
/**
 * Compounds without fingerprints after which a fill starts without a pause. The first
 * similarity or substructure search after a burst of posts waits for those of the burst
 * (all but their patterns: 0.4 to 0.55 ms each in one thread, shared by a matcher and the
 * event loop: 2.0 s after 3,500 posts on two cores), so at most a few seconds.
 */
const UNINDEXED_BACKLOG = 10_000;
/** At most this many compounds a search brings up to date on the event loop, not in a matcher (about 0.5 ms each). */
const CATCH_UP_HERE = 64;
/** Longest run of fingerprint computing on the event loop while a search waits for a matcher. */
const CATCH_UP_SLICE_MS = 10;
/** Patterns computed per matcher call (about 0.2 to 0.4 ms each). */
const FILL_CHUNK = 500;
/** A matcher call that takes longer than this is stopped (and counts as failed). */
const FILL_TIMEOUT_MS = 60_000;
/**
 * Failed fills in a row after which the missing patterns wait for the next start. A matcher
 * killed by another search's time limit fails the fill it was running: that one is retried.
 */
const FILL_ATTEMPTS = 3;

export interface SearchOptions {
  /** Only these compounds (a dataset's); undefined searches all. */
  within?: readonly string[];
  /** Stop after this many results (paging asks for offset + page size). */
  limit?: number;
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
  /** Slots whose pattern fingerprint is still to be computed (UNKNOWN_PATTERN until then). */
  private readonly unscreened = new Set<number>();
  /** Compounds (by index key) stored without fingerprints, not yet in the index. */
  private readonly unindexed = new Map<string, StoredStructure>();
  /**
   * Those of them a matcher is computing now. One removed or stored again meanwhile leaves
   * it, and the matcher's answer for it is dropped.
   */
  private readonly inFlight = new Map<string, StoredStructure>();
  private lastDeferred = 0;
  /** Uploads storing compounds now (holdFills). */
  private holds = 0;
  private fillTimer: NodeJS.Timeout | undefined;
  private filling: Promise<void> | undefined;
  /** Slots of the fill in flight. */
  private inFill = 0;
  private fillFailures = 0;
  private closed = false;

  private constructor(private readonly file: IndexFile | undefined, private readonly timeoutMs: number, workers: number, private readonly base: () => string) {
    this.pool = new MatcherPool(workers);
  }

  /**
   * Loads the toolkit and the index file under `dataDir` (none: memory only). URIs under
   * `baseUrl()` are kept relative to it, so the index survives a change of public base.
   */
  static async open(options: { dataDir?: string; timeoutMs: number; workers: number; baseUrl?: () => string }): Promise<SearchEngine> {
    const rd = await initFingerprints();
    const file = options.dataDir ? new IndexFile(path.join(options.dataDir, 'search', 'structures.idx'), `${FP_VERSION} rdkit-${rd.version()}`) : undefined;
    const engine = new SearchEngine(file, options.timeoutMs, options.workers, options.baseUrl ?? (() => ''));
    const loaded = file?.load(engine.index);
    engine.stale = !loaded?.loaded || loaded.garbage > 0;
    // Patterns a stopped process did not compute are computed now.
    for (let slot = 0; slot < engine.index.slots; slot++) if (engine.index.unscreened(slot)) engine.deferPattern(slot, 0);
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
    for (const uri of this.index.uris) if (uri !== undefined && !keep.has(uri) && this.index.remove(uri)) removed++;
    // Rewriting 100k entries takes a while: only when the file is not already exact.
    if (this.stale || computed > 0 || removed > 0) this.file?.rewrite(this.index);
    this.stale = false;
    return computed;
  }

  /**
   * Called when a compound is stored or its structure replaced. `fingerprints`, when given,
   * were computed with the parse that wrote `smiles` (parseStructure's fingerprints option,
   * in an upload's parse worker), so they are not computed again here; without them, the
   * matcher computes them after the caller is answered.
   */
  indexCompound(uri: string, smiles: string, inchiKey?: string, fingerprints?: StructureFingerprints): void {
    const key = this.keyOf(uri);
    // A matcher computing the structure it had drops its answer (indexUnindexed).
    this.inFlight.delete(key);
    if (fingerprints) {
      this.unindexed.delete(key);
      this.tryAdd({ uri: key, smiles, inchiKey }, true, fingerprints);
      return;
    }
    // A replaced structure's old entry goes at once: no search finds it by what it was.
    if (this.index.remove(key)) this.file?.appendRemove(key);
    this.unindexed.set(key, { uri: key, smiles, inchiKey });
    // A matcher will compute them: it starts now, not when the first search waits for it.
    if (this.unindexed.size === 1) this.pool.prestart();
    this.lastDeferred = Math.max(this.lastDeferred, performance.now());
    if (this.unindexed.size >= UNINDEXED_BACKLOG) void this.fillOnce();
    else this.scheduleFill(FILL_QUIET_MS);
  }

  /** Called when a compound is deleted. */
  removeCompound(uri: string): void {
    const key = this.keyOf(uri);
    this.inFlight.delete(key);
    this.unindexed.delete(key);
    if (this.index.remove(key)) this.file?.appendRemove(key);
  }

  /**
   * URIs of compounds with the identity of `text` (SMILES, InChI or InChIKey), in storage
   * order. Unlike the scans, it does not wait for the index to catch up: a compound still
   * waiting for its fingerprints already has the two keys it compares (its canonical SMILES
   * and InChIKey, as the parse that stored it wrote them).
   */
  async exact(text: string, options: SearchOptions = {}): Promise<string[]> {
    const query = text.trim();
    const keys = /^[A-Z]{14}-[A-Z]{10}-[A-Z]$/.test(query) ? { inchiKey: query } : this.parse(() => identityOf(query), 'SMILES');
    const same = (s: StoredStructure) => (keys.inchiKey !== undefined && s.inchiKey === keys.inchiKey) || (keys.canonicalSmiles !== undefined && s.smiles === keys.canonicalSmiles);
    // Those in a matcher now were stored before those still in the queue.
    const waiting = [...this.inFlight.values(), ...this.unindexed.values()].filter(same).map((s) => s.uri);
    const within = options.within ? new Set(options.within) : undefined;
    return [...this.index.lookup(keys).map((slot) => this.index.uris[slot]!), ...waiting].map((key) => this.uriOf(key)).filter((u) => !within || within.has(u));
  }

  /** Compounds with Tanimoto similarity >= threshold, most similar first. */
  async similar(smiles: string, threshold: number, options: SearchOptions = {}): Promise<Hit[]> {
    const query = this.parse(() => morganOf(smiles), 'SMILES');
    await this.catchUp();
    const filter = this.filterOf(options.within);
    const hits: SimilarityHit[] = [];
    for (let from = 0; from < this.index.slots; from += SCAN_CHUNK) {
      similarityScan(this.index, query, threshold, from, Math.min(from + SCAN_CHUNK, this.index.slots), filter, hits);
      if (from + SCAN_CHUNK < this.index.slots) await this.pause(options.signal);
    }
    hits.sort(bySimilarity);
    return hits.slice(0, options.limit ?? hits.length).map((h) => ({ uri: this.uriOf(this.index.uris[h.slot]!), similarity: h.similarity }));
  }

  /** Compounds that contain the query, in storage order. */
  async substructure(kind: QueryKind, text: string, options: SearchOptions = {}): Promise<Hit[]> {
    const screen = this.parse(() => screenOf(kind, text), kind === 'smarts' ? 'SMARTS' : 'SMILES');
    await this.catchUp();
    const filter = this.filterOf(options.within);
    const limit = options.limit ?? Infinity;
    const worker = this.pool.pick();
    let budget = this.timeoutMs;
    const found: Hit[] = [];
    for (let from = 0; from < this.index.slots && found.length < limit; from += SCAN_CHUNK) {
      const candidates: number[] = [];
      screenScan(this.index, screen, from, Math.min(from + SCAN_CHUNK, this.index.slots), filter, candidates);
      for (let i = 0; i < candidates.length && found.length < limit; ) {
        // A page needs few matches: small chunks first, so it stops soon after it is full.
        const size = Math.min(MATCH_CHUNK, Math.max(64, 2 * (limit - found.length)));
        const chunk = candidates.slice(i, i + size);
        i += size;
        const started = performance.now();
        const matched = await this.matchChunk(worker, kind, text, chunk.map((s) => this.index.pickles[s]!), budget);
        budget -= performance.now() - started;
        // The index may have changed while the worker ran: report only compounds still stored.
        for (const m of matched) {
          const uri = this.index.uris[chunk[m]!];
          if (uri !== undefined && found.length < limit) found.push({ uri: this.uriOf(uri) });
        }
        this.checkAborted(options.signal);
      }
    }
    return found;
  }

  /** Compounds whose pattern fingerprint, or any fingerprint, is still to be computed (or being computed). */
  get patternsPending(): number {
    return this.unscreened.size + this.unindexedCount + this.inFill;
  }

  /** Compounds stored without fingerprints, not yet in the index (or being computed). */
  get unindexedCount(): number {
    return this.unindexed.size + this.inFlight.size;
  }

  /** Computes every fingerprint still missing now, without waiting for posts to pause. */
  async fillPatternsNow(): Promise<void> {
    for (;;) {
      // A fill in flight (the quiet timer's) holds slots of its own: wait for it first.
      await this.filling;
      if ((this.unscreened.size === 0 && this.unindexed.size === 0) || this.closed) return;
      await this.fillOnce();
    }
  }

  /**
   * Puts every compound stored without fingerprints into the index, so that a search
   * misses none: a few here; more in a matcher and, while it computes, here too, a slice at
   * a time; and here what the matchers failed to compute. For a search waiting on it, all
   * but the pattern fingerprints (`withPattern` false), which cost as much as the rest: a
   * compound without its screen passes every screen, so no substructure hit is lost, and
   * the patterns are computed once searches and posts pause, as for an upload's compounds.
   */
  private async catchUp(withPattern = false): Promise<void> {
    while (this.unindexed.size > CATCH_UP_HERE && !this.closed && this.fillFailures < FILL_ATTEMPTS) {
      const fill = this.fillOnce(withPattern);
      await this.indexHereWhile(fill, withPattern);
      await fill;
    }
    // A fill in flight holds compounds of its own, out of the map until it answers.
    await this.filling;
    for (const s of [...this.unindexed.values()]) this.indexHere(s, withPattern);
  }

  /** Computes the fingerprints of a compound stored without them, on the event loop. */
  private indexHere(s: StoredStructure, withPattern: boolean): void {
    this.unindexed.delete(s.uri);
    this.tryAdd(s, true, undefined, withPattern);
  }

  async close(): Promise<void> {
    // What was stored without fingerprints gets them now, so the file holds it (a restart
    // would otherwise compute it in reconcile, on the event loop).
    await this.catchUp(true);
    this.closed = true;
    clearTimeout(this.fillTimer);
    await this.filling;
    this.file?.close();
    await this.pool.close();
  }

  /**
   * Holds the pattern fills back until the returned function is called (once FILL_BACKLOG
   * wait, they run all the same): an upload holds them while it stores its compounds, and
   * they start once it has finished and posts pause.
   */
  holdFills(): () => void {
    this.holds++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.holds--;
      this.lastDeferred = Math.max(this.lastDeferred, performance.now());
      if (this.unscreened.size > 0) this.scheduleFill(FILL_QUIET_MS);
    };
  }

  private deferPattern(slot: number, at = performance.now()): void {
    this.unscreened.add(slot);
    this.lastDeferred = Math.max(this.lastDeferred, at);
    this.scheduleFill(FILL_QUIET_MS);
  }

  private scheduleFill(delayMs: number): void {
    if (this.fillTimer || this.filling || this.closed) return;
    this.fillTimer = setTimeout(() => {
      this.fillTimer = undefined;
      void this.fillWhenQuiet();
    }, delayMs);
    // Nothing to answer waits on it: it must not keep a process alive.
    this.fillTimer.unref();
  }

  private async fillWhenQuiet(): Promise<void> {
    if (this.closed || (this.unscreened.size === 0 && this.unindexed.size === 0)) return;
    const quietFor = performance.now() - this.lastDeferred;
    if (this.unscreened.size < FILL_BACKLOG && this.unindexed.size < UNINDEXED_BACKLOG) {
      // Held: the release schedules the fill (and every compound deferred meanwhile checks the backlog).
      if (this.holds > 0) return;
      if (quietFor < FILL_QUIET_MS) return this.scheduleFill(FILL_QUIET_MS - quietFor);
    }
    await this.fillOnce();
  }

  /**
   * Computes up to FILL_CHUNK missing fingerprints in a matcher process: those of compounds
   * stored without any first, else missing patterns. One fill at a time (a call while one
   * runs answers that one). When it ends with some still missing (some were deferred
   * meanwhile), the next is scheduled.
   */
  private fillOnce(withPattern = true): Promise<void> {
    if (this.filling) return this.filling;
    const run = async () => {
      if (this.unindexed.size > 0) return this.indexUnindexed(withPattern);
      const slots: number[] = [];
      for (const slot of this.unscreened) {
        if (slots.length === FILL_CHUNK) break;
        this.unscreened.delete(slot);
        // Removed or replaced since (a replacement has a slot of its own).
        if (this.index.uris[slot] !== undefined) slots.push(slot);
      }
      if (slots.length === 0) return;
      const pickles = slots.map((slot) => this.index.pickles[slot]!);
      let words: Uint32Array;
      this.inFill = slots.length;
      try {
        words = await this.pool.patterns(PATTERN, pickles, FILL_TIMEOUT_MS);
        if (words.length !== slots.length * FP_WORDS) throw new Error(`the matcher answered ${words.length} words for ${slots.length} patterns`);
      } catch {
        // Until they get one, these compounds keep a screen that passes everything (exact,
        // only slower to search); after FILL_ATTEMPTS the next start tries again, since the
        // file holds them so.
        if (++this.fillFailures < FILL_ATTEMPTS) for (const slot of slots) this.unscreened.add(slot);
        return;
      } finally {
        this.inFill = 0;
      }
      this.fillFailures = 0;
      slots.forEach((slot, i) => {
        const uri = this.index.uris[slot];
        if (uri === undefined || this.index.pickles[slot] !== pickles[i]) return;
        const pattern = words.subarray(i * FP_WORDS, (i + 1) * FP_WORDS);
        this.index.setPattern(uri, pattern);
        if (!this.closed) this.file?.appendPattern(uri, pattern);
      });
    };
    this.filling = run().finally(() => {
      this.filling = undefined;
      if (this.unscreened.size > 0 || (this.unindexed.size > 0 && this.fillFailures < FILL_ATTEMPTS)) this.scheduleFill(0);
    });
    return this.filling;
  }

  /**
   * Computes the fingerprints of compounds waiting for them here, CATCH_UP_SLICE_MS at a
   * time between turns of the event loop, until `fill` (a matcher's) settles or none wait.
   */
  private async indexHereWhile(fill: Promise<void>, withPattern: boolean): Promise<void> {
    let settled = false;
    void fill.finally(() => (settled = true));
    while (!settled && this.unindexed.size > 0 && !this.closed) {
      const until = performance.now() + CATCH_UP_SLICE_MS;
      for (const s of this.unindexed.values()) {
        this.indexHere(s, withPattern);
        if (performance.now() >= until) break;
      }
      await yieldToLoop();
    }
  }

  /** One fill of compounds stored without fingerprints: FILL_CHUNK of them, in a matcher (the patterns too when `withPattern`). */
  private async indexUnindexed(withPattern: boolean): Promise<void> {
    const batch = [...this.unindexed.values()].slice(0, FILL_CHUNK);
    for (const s of batch) {
      this.unindexed.delete(s.uri);
      this.inFlight.set(s.uri, s);
    }
    // Removed or stored again while the matcher ran, a compound has left inFlight.
    const still = (s: StoredStructure) => this.inFlight.get(s.uri) === s;
    try {
      const computed = await this.pool.fingerprints({ morgan: MORGAN, pattern: withPattern ? PATTERN : undefined }, batch.map((s) => s.smiles), FILL_TIMEOUT_MS);
      this.fillFailures = 0;
      batch.forEach((s, i) => {
        const fps = computed[i]!;
        // One RDKit cannot read stays findable by nothing but its identity keys (as in tryAdd).
        if (still(s) && !('error' in fps)) this.tryAdd(s, true, fps);
      });
    } catch {
      // Back to wait. After FILL_ATTEMPTS failures in a row no fill is scheduled: a search
      // computes them itself (catchUp), and a restart (reconcile).
      this.fillFailures++;
      for (const s of batch) if (still(s)) this.unindexed.set(s.uri, s);
    } finally {
      for (const s of batch) if (still(s)) this.inFlight.delete(s.uri);
    }
  }

  private async matchChunk(worker: ReturnType<MatcherPool['pick']>, kind: QueryKind, text: string, pickles: Uint8Array[], budget: number): Promise<Uint32Array> {
    try {
      if (budget <= 0) throw new MatchTimeout(this.timeoutMs);
      return await worker.match(kind, text, pickles, budget);
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

  private tryAdd(s: StoredStructure, persist: boolean, computed?: StructureFingerprints, withPattern = true): boolean {
    let fps;
    try {
      fps = computed ?? fingerprintsOf(s.smiles, withPattern);
    } catch (e) {
      // A structure RDKit cannot read stays findable by nothing but its identity keys.
      if (!(e instanceof ToolkitParseError)) throw e;
      this.index.remove(s.uri);
      return false;
    }
    const entry = { uri: s.uri, canonicalSmiles: fps.canonicalSmiles, inchiKey: s.inchiKey, morgan: fps.morgan, pattern: fps.pattern ?? UNKNOWN_PATTERN, pickle: fps.pickle };
    const slot = this.index.add(entry);
    if (persist) this.file?.append(entry);
    if (!fps.pattern) this.deferPattern(slot);
    return true;
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
