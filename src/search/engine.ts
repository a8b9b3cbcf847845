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
import { bySimilarity, screenScan, similarityScan, type SimilarityHit, type SlotFilter } from './scan.ts';

const SCAN_CHUNK = 16_384;
/** Slots a similarity scan does between yields to the event loop (a few ms in the kernel). */
const SIMILARITY_CHUNK = 262_144;
const MATCH_CHUNK = 2_048;

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
    for (const uri of this.index.uris) if (uri !== undefined && !keep.has(uri) && this.index.remove(uri)) removed++;
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
    if (this.index.remove(key)) this.file?.appendRemove(key);
  }

  /** URIs of compounds with the identity of `text` (SMILES, InChI or InChIKey), in storage order. */
  async exact(text: string, options: SearchOptions = {}): Promise<string[]> {
    const query = text.trim();
    const keys = /^[A-Z]{14}-[A-Z]{10}-[A-Z]$/.test(query) ? { inchiKey: query } : this.parse(() => identityOf(query), 'SMILES');
    const within = options.within ? new Set(options.within) : undefined;
    return this.index.lookup(keys).map((slot) => this.uriOf(this.index.uris[slot]!)).filter((u) => !within || within.has(u));
  }

  /** Compounds with Tanimoto similarity >= threshold, most similar first. */
  async similar(smiles: string, threshold: number, options: SearchOptions = {}): Promise<Hit[]> {
    const query = this.parse(() => morganOf(smiles), 'SMILES');
    const filter = this.filterOf(options.within);
    const hits: SimilarityHit[] = [];
    for (let from = 0; from < this.index.slots; from += SIMILARITY_CHUNK) {
      similarityScan(this.index, query, threshold, from, Math.min(from + SIMILARITY_CHUNK, this.index.slots), filter, hits);
      if (from + SIMILARITY_CHUNK < this.index.slots) await this.pause(options.signal);
    }
    hits.sort(bySimilarity);
    return hits.slice(0, options.limit ?? hits.length).map((h) => ({ uri: this.uriOf(this.index.uris[h.slot]!), similarity: h.similarity }));
  }

  /** Compounds that contain the query, in storage order. */
  async substructure(kind: QueryKind, text: string, options: SearchOptions = {}): Promise<Hit[]> {
    const screen = this.parse(() => screenOf(kind, text), kind === 'smarts' ? 'SMARTS' : 'SMILES');
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
        const matched = await this.matchChunk(worker, kind, text, chunk.map((s) => this.index.pickle(s)!), budget);
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

  async close(): Promise<void> {
    this.file?.close();
    await this.pool.close();
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

  private tryAdd(s: StoredStructure, persist: boolean, computed?: StructureFingerprints): boolean {
    let fps;
    try {
      fps = computed ?? fingerprintsOf(s.smiles);
    } catch (e) {
      // A structure RDKit cannot read stays findable by nothing but its identity keys.
      if (!(e instanceof ToolkitParseError)) throw e;
      if (this.index.remove(s.uri) && persist) this.file?.appendRemove(s.uri);
      return false;
    }
    const entry = { uri: s.uri, canonicalSmiles: fps.canonicalSmiles, inchiKey: s.inchiKey, morgan: fps.morgan, pattern: fps.pattern, pickle: fps.pickle };
    this.index.add(entry, persist ? this.file?.append(entry) : undefined);
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
