// Journal records: what a commit writes and how any Oxigraph instance (the live store, the
// SPARQL replica, the compaction worker) applies it, so all three hold the same state.
// The records are the written form of writeOps.ts. Blank nodes in a write
// are new nodes scoped to that write, which Oxigraph's loader guarantees on every replay.
import { readFileSync } from 'node:fs';
import * as ox from 'oxigraph';
import { Parser } from 'n3';
import { checkGraph, type JournalRecord } from '../writeOps.ts';
import { readJournal } from './journal.ts';
import { loadWithReserve } from './memoryReserve.ts';
import { segmentFile, snapshotFile, type ReplayPlan } from './layout.ts';

const NT = 'application/n-triples';

/**
 * Applies a record op by op; a failing op throws and the ops after it are not applied.
 * Each load is one transaction, so a failing load adds nothing, live and on replay.
 * Oxigraph's bulk loader (no_transaction) was twice as fast on a 100,000-row upload only
 * because transactions grew the memory at more of their loads; with the reserve
 * (memoryReserve.ts) they are as fast, and leave no 160 MB batch buffer in the memory.
 */
export function applyRecord(store: ox.Store, record: JournalRecord): void {
  for (const op of record) {
    const g = ox.namedNode(op.graph);
    if (op.op === 'replace' || op.op === 'drop') store.update(`DROP SILENT GRAPH <${checkGraph(op.graph)}>`);
    if ((op.op === 'replace' || op.op === 'add') && op.nt) {
      const nt = op.nt;
      loadWithReserve(() => store.load(nt, { format: NT, to_graph_name: g }));
    }
    if (op.op === 'remove' && op.nt) {
      for (const q of new Parser({ format: 'N-Triples' }).parse(op.nt)) {
        store.delete(ox.quad(ox.fromTerm(q.subject), ox.fromTerm(q.predicate), ox.fromTerm(q.object), g));
      }
    }
  }
}

/** Releases a store's WASM memory now rather than when the finalizer runs (wasm-bindgen's free()). */
export const freeStore = (store: ox.Store): void => (store as unknown as { free(): void }).free();

function* chunks(buf: Buffer, size = 1 << 20): Generator<Uint8Array> {
  for (let i = 0; i < buf.length; i += size) yield buf.subarray(i, i + size);
}

export const decodeRecord = (payload: Buffer): JournalRecord => JSON.parse(payload.toString('utf8')) as JournalRecord;

export interface ReplayResult {
  /** Records read from the last segment, and where its intact prefix ends. */
  lastRecords: number;
  lastValidLength: number;
  lastTorn: boolean;
  /** Records skipped because the store refused them (they failed live too). */
  skipped: number;
}

/**
 * Loads `plan` into `store`: the snapshot, then every record of its segments in order.
 * Only the last segment may end in a torn record (a crash mid-append); an earlier torn
 * segment means the disk lost acknowledged data, and replay refuses to guess.
 */
export function replay(store: ox.Store, plan: ReplayPlan): ReplayResult {
  if (plan.snapshot !== null) {
    const file = snapshotFile(plan.dir, plan.snapshot);
    // Our own output: skipping validation makes start-up faster, and so do chunks (the
    // loader parses them as a stream instead of copying one huge input into WASM memory).
    store.load(chunks(readFileSync(file)), { format: 'application/n-quads', no_transaction: true, lenient: true });
  }
  const result: ReplayResult = { lastRecords: 0, lastValidLength: 0, lastTorn: false, skipped: 0 };
  plan.segments.forEach((seg, i) => {
    const last = i === plan.segments.length - 1;
    const read = readJournal(segmentFile(plan.dir, seg), last ? plan.lastLength : undefined);
    if (read.torn && !last) throw new Error(`journal segment ${seg} is damaged at byte ${read.validLength}; refusing to skip acknowledged writes`);
    for (const record of read.records) {
      // A record the live store refused failed its writer (500, nothing acknowledged); its
      // ops are skipped here the same way, so a bad record can never stop start-up.
      try {
        applyRecord(store, decodeRecord(record));
      } catch (e) {
        result.skipped++;
        console.error(`journal segment ${seg}: skipped a record the store refused: ${(e as Error).message}`);
      }
    }
    if (last) Object.assign(result, { lastRecords: read.records.length, lastValidLength: read.validLength, lastTorn: read.torn });
  });
  return result;
}

/** Lines of N-Triples (or N-Quads) text: its triples. */
export function lineCount(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** Quads a record writes or removes (a dropped graph counts one). */
export function recordQuads(record: JournalRecord): number {
  let n = 0;
  for (const op of record) n += op.op === 'drop' ? 1 : op.nt ? lineCount(op.nt) : 0;
  return n;
}
