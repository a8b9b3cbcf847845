// A snapshot (snapshot.N.nq: the previous snapshot plus the segments below N), written by
// compactWorker.ts in a worker thread to snapshot.tmp, fsynced, renamed, directory fsynced.
//
// It is merged as text, graph by graph, instead of replaying everything into a
// second Oxigraph store and dumping it: that copy cost as much memory as the live store
// (about 830 bytes a triple) plus three copies of the dump's text (WASM, JS string,
// UTF-8 buffer), and it ran beside the live store, so a 100,000-row upload peaked near
// 4 GB. Every write names whole graphs (records.ts), so a graph's content is its
// snapshot lines unless the segments replace or drop it, plus what the segments add
// after that. Each op of the segments is applied to a small scratch store exactly as
// replay applies it (the same failures skip the same rest of a record), and what the
// scratch store holds is written out in Oxigraph's own form: canonical literals, and
// fresh blank nodes per write, as replay makes them. Only a graph that the segments
// remove triples from is rebuilt in a store of its own, since removal needs term
// equality; that store holds that one graph. Duplicate lines are possible (a triple
// added twice); loading a snapshot makes them one triple again.
import { closeSync, fsyncSync, openSync, readSync, renameSync, rmSync } from 'node:fs';
import * as ox from 'oxigraph';
import { Parser } from 'n3';
import { applyRecord, decodeRecord, freeStore } from './records.ts';
import { checkGraph, type JournalOp } from '../writeOps.ts';
import { readJournal } from './journal.ts';
import { segmentFile, snapshotFile, snapshotOpsTemp, snapshotTemp, type ReplayPlan } from './layout.ts';
import { writeFullySync } from '../../util/writeFully.ts';
import { openPrivateSync } from '../../files/privateFiles.ts';

export interface CompactJob {
  plan: ReplayPlan;
  /** Index of the snapshot to write: the plan covers every segment below it. */
  target: number;
  /** Bytes read from the previous snapshot at a time (tests make it small). */
  readChunk?: number;
}

const NT = 'application/n-triples';
const NQ = 'application/n-quads';
/** Bytes read from the previous snapshot at a time. */
const READ_CHUNK = 8 << 20;

/** Where an op's canonical N-Quads lie in the ops file. */
interface Range { start: number; length: number }

type Step = { add: Range } | { remove: string };

/** What the segments do to one graph. */
interface GraphFate {
  /** True when a replace or drop means the snapshot's lines of the graph are gone. */
  reset: boolean;
  /** Adds and removes since the snapshot or the last reset, in order. */
  steps: Step[];
  /** A remove among the steps: the graph is rebuilt in a store of its own. */
  removes: boolean;
}

/** Appends text to a file, tracking its length. */
class Appender {
  length = 0;
  constructor(readonly fd: number) {}
  write(text: string | Buffer): Range {
    const buf = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
    writeFullySync(this.fd, buf);
    const range = { start: this.length, length: buf.length };
    this.length += buf.length;
    return range;
  }
}

function readRange(fd: number, { start, length }: Range): Buffer {
  const buf = Buffer.allocUnsafe(length);
  let done = 0;
  while (done < length) {
    const n = readSync(fd, buf, done, length - done, start + done);
    if (n === 0) throw new Error('the ops file ended early');
    done += n;
  }
  return buf;
}

/**
 * Pass 1: every op of the segments, in order, applied to a scratch store as replay would
 * apply it (applyRecord); what it adds is written to the ops file in canonical form.
 */
function readSegments(plan: ReplayPlan, ops: Appender): Map<string, GraphFate> {
  const fates = new Map<string, GraphFate>();
  const fate = (graph: string): GraphFate => {
    let f = fates.get(graph);
    if (!f) fates.set(graph, (f = { reset: false, steps: [], removes: false }));
    return f;
  };
  plan.segments.forEach((seg, i) => {
    const last = i === plan.segments.length - 1;
    const read = readJournal(segmentFile(plan.dir, seg), last ? plan.lastLength : undefined);
    if (read.torn && !last) throw new Error(`journal segment ${seg} is damaged at byte ${read.validLength}; refusing to skip acknowledged writes`);
    for (const payload of read.records) {
      for (const op of decodeRecord(payload)) {
        // A failing op stops its record here, as applyRecord's throw does on replay.
        if (!applyOp(op)) break;
      }
    }
  });
  return fates;

  function applyOp(op: JournalOp): boolean {
    let ok = true;
    try {
      const g = ox.namedNode(op.graph);
      if (op.op === 'replace' || op.op === 'drop') {
        checkGraph(op.graph);
        fates.set(op.graph, { reset: true, steps: [], removes: false });
      }
      if (op.op === 'remove' && op.nt) {
        // Parsed whole before anything is deleted, as in applyRecord.
        new Parser({ format: 'N-Triples' }).parse(op.nt);
        const f = fate(op.graph);
        f.steps.push({ remove: op.nt });
        f.removes = true;
      }
      if ((op.op === 'replace' || op.op === 'add') && op.nt) {
        // A store per op, freed at once, so the next op reuses its memory. One transaction,
        // as applyRecord loads: a failing load adds nothing.
        const store = new ox.Store();
        try {
          store.load(op.nt, { format: NT, to_graph_name: g });
          if (store.size > 0) fate(op.graph).steps.push({ add: ops.write(store.dump({ format: NQ })) });
        } finally {
          freeStore(store);
        }
      }
    } catch {
      ok = false;
    }
    return ok;
  }
}

/**
 * Pass 2: the previous snapshot, streamed as bytes: runs of lines of graphs the segments
 * leave alone are copied as they are, lines of a graph they reset are left out, and lines
 * of a graph they remove from are kept aside for its rebuild. Each line's graph is the
 * last IRI on it (Oxigraph's N-Quads, `<s> <p> <o> <g> .`; every write names a graph),
 * compared as bytes with the line before, so no string is made per line.
 */
function copySnapshot(plan: ReplayPlan, fates: Map<string, GraphFate>, out: Appender, readChunk: number): Map<string, string[]> {
  const kept = new Map<string, string[]>();
  if (plan.snapshot === null) return kept;
  const fd = openSync(snapshotFile(plan.dir, plan.snapshot), 'r');
  try {
    let buf = Buffer.allocUnsafe(readChunk);
    let filled = 0;
    let lastGraph: Buffer | undefined;
    let lastFate: GraphFate | undefined;
    let endsInNewline = true;
    for (;;) {
      // A line longer than the buffer: make room for it.
      if (filled === buf.length) buf = Buffer.concat([buf, Buffer.allocUnsafe(buf.length)]);
      const n = readSync(fd, buf, filled, buf.length - filled, null);
      const end = filled + n;
      // Whole lines only, except at the end of the file.
      const cut = n > 0 ? buf.lastIndexOf(0x0a, end - 1) + 1 : end;
      let run = -1;
      let pos = 0;
      while (pos < cut) {
        const nl = buf.indexOf(0x0a, pos);
        const lineEnd = nl >= 0 && nl < cut ? nl : cut;
        const next = Math.min(lineEnd + 1, cut);
        if (lineEnd > pos) {
          const gt = buf.lastIndexOf(0x3e, lineEnd - 1);
          const lt = gt > pos ? buf.lastIndexOf(0x3c, gt) : -1;
          if (lt <= pos) throw new Error(`snapshot line without a graph: ${buf.toString('utf8', pos, Math.min(lineEnd, pos + 200))}`);
          if (!lastGraph || lastGraph.length !== gt - lt - 1 || buf.compare(lastGraph, 0, lastGraph.length, lt + 1, gt) !== 0) {
            lastGraph = Buffer.from(buf.subarray(lt + 1, gt));
            lastFate = fates.get(lastGraph.toString('utf8'));
          }
          if (lastFate?.reset || lastFate?.removes) {
            if (run >= 0) out.write(buf.subarray(run, pos));
            run = -1;
            if (lastFate.removes && !lastFate.reset) {
              const graph = lastGraph.toString('utf8');
              let lines = kept.get(graph);
              if (!lines) kept.set(graph, (lines = []));
              lines.push(buf.toString('utf8', pos, lineEnd));
            }
          } else if (run < 0) {
            run = pos;
          }
        }
        pos = next;
      }
      if (run >= 0) out.write(buf.subarray(run, cut));
      if (cut > 0) endsInNewline = buf[cut - 1] === 0x0a;
      buf.copy(buf, 0, cut, end);
      filled = end - cut;
      if (n === 0) break;
    }
    // What pass 3 appends must start on a line of its own.
    if (!endsInNewline) out.write('\n');
  } finally {
    closeSync(fd);
  }
  return kept;
}

/** Writes snapshot `target` of `plan` (the previous snapshot and the segments after it). */
export function compact({ plan, target, readChunk = READ_CHUNK }: CompactJob): void {
  const tmp = snapshotTemp(plan.dir);
  const opsFile = snapshotOpsTemp(plan.dir);
  const opsFd = openPrivateSync(opsFile, 'w+');
  const fd = openPrivateSync(tmp, 'w');
  try {
    const fates = readSegments(plan, new Appender(opsFd));
    const out = new Appender(fd);
    const kept = copySnapshot(plan, fates, out, readChunk);
    // Pass 3: what the segments add, graph by graph.
    for (const [graph, f] of fates) {
      if (!f.removes) {
        for (const step of f.steps) if ('add' in step) out.write(readRange(opsFd, step.add));
        continue;
      }
      const store = new ox.Store();
      const lines = kept.get(graph);
      if (lines) store.load(lines.join('\n'), { format: NQ, lenient: true });
      for (const step of f.steps) {
        if ('add' in step) store.load(readRange(opsFd, step.add).toString('utf8'), { format: NQ, lenient: true });
        else applyRecord(store, [{ op: 'remove', graph, nt: step.remove }]);
      }
      out.write(store.dump({ format: NQ }));
      freeStore(store);
    }
    fsyncSync(fd);
  } finally {
    closeSync(fd);
    closeSync(opsFd);
    rmSync(opsFile, { force: true });
  }
  renameSync(tmp, snapshotFile(plan.dir, target));
  const dirFd = openSync(plan.dir, 'r');
  try {
    fsyncSync(dirFd);
  } finally {
    closeSync(dirFd);
  }
}

