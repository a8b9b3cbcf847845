// The index on disk (rebuilt fast at start): an append-only binary log of
// add and remove records under DATA_DIR/search, compacted at start. A torn last record
// (crash mid-append) is dropped; start-up reconciles the index with the stored compounds,
// so whatever the file lost is recomputed rather than trusted.
import { closeSync, existsSync, fstatSync, fsyncSync, openSync, readSync, renameSync, statSync } from 'node:fs';
import { writeFullySync } from '../util/writeFully.ts';
import path from 'node:path';
import { mkdirPrivateSync, openPrivateSync } from '../files/privateFiles.ts';
import { FP_WORDS } from '../chem/fingerprints.ts';
import type { EntryReader, IndexEntry, StructureIndex } from './index.ts';

// 2: every entry has its pattern fingerprint (files of 1 could hold entries waiting for one).
const MAGIC = 'OTSEARCH2';
const ADD = 1;
const REMOVE = 2;
const FP_BYTES = FP_WORDS * 4;
/** Bytes read at a time when the file is loaded, and first read for one entry. */
const LOAD_CHUNK = 4 << 20;
const READ_GUESS = 2048;
/** Most bytes one read spans when pickles of many entries are read at once, and most bytes between two of them. */
const PICKLE_SPAN = 1 << 20;
const PICKLE_GAP = 4096;
const SCRATCH_MORGAN = new Uint32Array(FP_WORDS);
const SCRATCH_PATTERN = new Uint32Array(FP_WORDS);

export interface LoadResult {
  /** False when there was no usable file (missing, or made with other fingerprints). */
  loaded: boolean;
  /** Records that no longer count (replaced or removed entries, a torn tail). */
  garbage: number;
}

export class IndexFile implements EntryReader {
  private fd: number | undefined;
  /** Open for reading entries back (the index keeps only where each one is). */
  private readFd: number | undefined;
  /** Set when an append failed: nothing more is appended until the next rewrite. */
  private stopped = false;
  /**
   * Records appended since the last write: they go to the file in one write once the
   * event loop's current turn is over (an upload's batch of compounds, or the posts that
   * finished together), not in one system call each. A crash loses at most that turn's
   * records, which start-up reconciliation computes again. Until written (or for good,
   * once appending has stopped) they are read back from here.
   */
  private pending: Buffer[] = [];
  private flushing: NodeJS.Immediate | undefined;
  /** Bytes of the file on disk, and of the file plus `pending` (where the next record goes). */
  private written: number | undefined;
  private end = 0;

  /** `version` names the fingerprint definition; a file of another version is ignored. */
  constructor(readonly file: string, private readonly version: string) {}

  /** Replays the file into `index`, read in chunks so a large file is never whole in memory. */
  load(index: StructureIndex): LoadResult {
    if (!existsSync(this.file)) return { loaded: false, garbage: 0 };
    const fd = openSync(this.file, 'r');
    const size = fstatSync(fd).size;
    const header = this.header();
    let buf = Buffer.alloc(LOAD_CHUNK);
    let have = readSync(fd, buf, 0, buf.length, 0);
    if (have < header.length || !buf.subarray(0, header.length).equals(header)) {
      closeSync(fd);
      return { loaded: false, garbage: 0 };
    }
    index.readFrom(this);
    // `base` is the file position of buf[0].
    let base = 0;
    let pos = header.length;
    let records = 0;
    let torn: number;
    for (;;) {
      if (pos + 5 > have || pos + 5 + buf.readUInt32LE(pos + 1) > have) {
        // The record is not whole in the buffer: read on from its start.
        const need = pos + 5 > have ? 5 : 5 + buf.readUInt32LE(pos + 1);
        const kept = have - pos;
        if (base + pos + need > size) { torn = kept > 0 ? 1 : 0; break; }
        const next = need > buf.length ? Buffer.alloc(need) : buf;
        if (next === buf) buf.copyWithin(0, pos, have);
        else buf.copy(next, 0, pos, have);
        buf = next;
        base += pos;
        pos = 0;
        have = kept + readSync(fd, buf, kept, buf.length - kept, base + kept);
        continue;
      }
      const type = buf[pos];
      const len = buf.readUInt32LE(pos + 1);
      const body = buf.subarray(pos + 5, pos + 5 + len);
      if (type === ADD) index.add(decodeEntry(body, true), base + pos);
      else if (type === REMOVE) index.remove(body.toString('utf8'));
      records++;
      pos += 5 + len;
    }
    this.closeReader();
    this.readFd = fd;
    this.written = this.end = size;
    // No slot has been handed out yet: drop those of replaced and removed entries, and the
    // spare room growing left.
    index.compact();
    return { loaded: true, garbage: records - index.size + torn };
  }

  /** Appends an entry; answers where it is (for `read`). */
  append(entry: IndexEntry): number {
    return this.write(record(ADD, encodeEntry(entry)));
  }

  appendRemove(uri: string): void {
    this.write(record(REMOVE, Buffer.from(uri, 'utf8')));
  }

  /** The entry of the ADD record at byte `at`. */
  read(at: number): IndexEntry {
    this.knowEnd();
    if (at >= this.written!) {
      let from = this.written!;
      for (const data of this.pending) {
        if (at < from + data.length) return decodeRecord(data.subarray(at - from));
        from += data.length;
      }
      throw new Error(`no index record at ${at}`);
    }
    this.readFd ??= openSync(this.file, 'r');
    const head = Buffer.alloc(READ_GUESS);
    const got = readSync(this.readFd, head, 0, head.length, at);
    const len = 5 + head.readUInt32LE(1);
    if (len <= got) return decodeRecord(head);
    const whole = Buffer.alloc(len);
    readSync(this.readFd, whole, 0, len, at);
    return decodeRecord(whole);
  }

  /**
   * The pickles of the ADD records at `ats`: records close together (candidates of a
   * substructure search, in slot order, hence in file order) are read with one system
   * call, and nothing but the pickle is decoded. The answers are views of fresh buffers.
   */
  readPickles(ats: ArrayLike<number>): Uint8Array[] {
    this.knowEnd();
    const out: Uint8Array[] = new Array(ats.length);
    for (let i = 0; i < ats.length;) {
      const from = ats[i]!;
      if (from >= this.written!) {
        out[i++] = this.read(from).pickle;
        continue;
      }
      // The run of records in file order, each close to the last, within PICKLE_SPAN of this one.
      let j = i + 1;
      while (j < ats.length && ats[j]! > ats[j - 1]! && ats[j]! - ats[j - 1]! <= PICKLE_GAP && ats[j]! - from < PICKLE_SPAN && ats[j]! < this.written!) j++;
      this.readFd ??= openSync(this.file, 'r');
      const span = Buffer.allocUnsafe(Math.min(ats[j - 1]! + READ_GUESS, this.written!) - from);
      const got = readSync(this.readFd, span, 0, span.length, from);
      for (; i < j; i++) {
        const at = ats[i]! - from;
        const whole = at + 5 <= got && at + 5 + span.readUInt32LE(at + 1) <= got;
        out[i] = whole ? pickleOf(span, at) : this.read(ats[i]!).pickle;
      }
    }
    return out;
  }

  /** Writes the live entries to a new file and renames it over the old one (atomic). */
  rewrite(index: StructureIndex): void {
    this.flush();
    this.close(false);
    mkdirPrivateSync(path.dirname(this.file));
    const temp = this.file + '.tmp';
    const fd = openPrivateSync(temp, 'w');
    const at = new Float64Array(index.slots).fill(-1);
    const head = this.header();
    let size = head.length;
    try {
      writeFullySync(fd, head);
      const chunk: Buffer[] = [];
      for (let slot = 0; slot < index.slots; slot++) {
        const entry = index.entry(slot);
        if (!entry) continue;
        const r = record(ADD, encodeEntry(entry));
        at[slot] = size;
        size += r.length;
        chunk.push(r);
        if (chunk.length >= 4096) writeFullySync(fd, Buffer.concat(chunk.splice(0)));
      }
      if (chunk.length) writeFullySync(fd, Buffer.concat(chunk));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, this.file);
    this.closeReader();
    this.pending = [];
    this.written = this.end = size;
    for (let slot = 0; slot < at.length; slot++) if (at[slot]! >= 0) index.relocate(slot, at[slot]!);
    this.stopped = false;
  }

  close(reader = true): void {
    this.flush();
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
    if (reader) this.closeReader();
  }

  private closeReader(): void {
    if (this.readFd !== undefined) closeSync(this.readFd);
    this.readFd = undefined;
  }

  /** Where the file ends, learnt once (a file appended to without a load). */
  private knowEnd(): void {
    if (this.written !== undefined) return;
    this.written = this.end = existsSync(this.file) ? statSync(this.file).size : this.header().length;
  }

  /**
   * The file is a cache of what the store holds (start-up reconciles the two), so a write
   * that fails (a full disk) must not fail the request that changed a compound: the file
   * stops growing (what it did not take stays in memory), its torn tail is dropped at the
   * next start and reconciliation redoes it.
   */
  private write(data: Buffer): number {
    this.knowEnd();
    const at = this.end;
    this.end += data.length;
    this.pending.push(data);
    if (!this.stopped) this.flushing ??= setImmediate(() => this.flush());
    return at;
  }

  private flush(): void {
    clearImmediate(this.flushing);
    this.flushing = undefined;
    if (this.pending.length === 0 || this.stopped) return;
    const data = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending);
    try {
      this.appendRecord(data);
      this.pending = [];
      this.written! += data.length;
    } catch {
      this.stopped = true;
      if (this.fd !== undefined) closeSync(this.fd);
      this.fd = undefined;
    }
  }

  private appendRecord(data: Buffer): void {
    if (this.fd === undefined) {
      mkdirPrivateSync(path.dirname(this.file));
      if (!existsSync(this.file)) this.rewriteEmpty();
      this.fd = openPrivateSync(this.file, 'a');
    }
    writeFullySync(this.fd, data);
  }

  private rewriteEmpty(): void {
    const fd = openPrivateSync(this.file, 'w');
    writeFullySync(fd, this.header());
    closeSync(fd);
  }

  private header(): Buffer {
    return Buffer.from(`${MAGIC} ${this.version}\n`, 'utf8');
  }
}

function record(type: number, body: Buffer): Buffer {
  const head = Buffer.alloc(5);
  head[0] = type;
  head.writeUInt32LE(body.length, 1);
  return Buffer.concat([head, body]);
}

function str(s: string): Buffer {
  return bytes(Buffer.from(s, 'utf8'));
}

function bytes(b: Uint8Array): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32LE(b.length);
  return Buffer.concat([len, b]);
}

function fpBytes(words: Uint32Array): Buffer {
  return Buffer.from(words.buffer, words.byteOffset, FP_BYTES);
}

function encodeEntry(e: IndexEntry): Buffer {
  return Buffer.concat([str(e.uri), str(e.canonicalSmiles), str(e.inchiKey ?? ''), fpBytes(e.morgan), fpBytes(e.pattern), bytes(e.pickle)]);
}

/** The entry of a whole ADD record (type, length, body) at the start of `r`. */
function decodeRecord(r: Buffer): IndexEntry {
  return decodeEntry(r.subarray(5, 5 + r.readUInt32LE(1)));
}

/** The pickle of the ADD record at `at` of `r` (a view), the rest skipped undecoded. */
function pickleOf(r: Buffer, at: number): Uint8Array {
  let pos = at + 5;
  // uri, canonical SMILES and InChIKey, then the two fingerprints.
  for (let k = 0; k < 3; k++) pos += 4 + r.readUInt32LE(pos);
  pos += 2 * FP_BYTES;
  return r.subarray(pos + 4, pos + 4 + r.readUInt32LE(pos));
}

/**
 * The entry of a record body. `transient`: fingerprints and pickle are views that the next
 * decode overwrites (loading copies them into the index at once, and keeps no pickle).
 */
function decodeEntry(b: Buffer, transient = false): IndexEntry {
  let pos = 0;
  const next = (): Buffer => {
    const len = b.readUInt32LE(pos);
    const out = b.subarray(pos + 4, pos + 4 + len);
    pos += 4 + len;
    return out;
  };
  const uri = next().toString('utf8');
  const canonicalSmiles = next().toString('utf8');
  const inchiKey = next().toString('utf8') || undefined;
  const fp = (scratch: Uint32Array): Uint32Array => {
    const words = transient ? scratch : new Uint32Array(FP_WORDS);
    new Uint8Array(words.buffer).set(b.subarray(pos, pos + FP_BYTES));
    pos += FP_BYTES;
    return words;
  };
  const morgan = fp(SCRATCH_MORGAN);
  const pattern = fp(SCRATCH_PATTERN);
  const pickleLen = b.readUInt32LE(pos);
  const pickle = transient ? b.subarray(pos + 4, pos + 4 + pickleLen) : new Uint8Array(b.subarray(pos + 4, pos + 4 + pickleLen));
  return { uri, canonicalSmiles, inchiKey, morgan, pattern, pickle };
}
