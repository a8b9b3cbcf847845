// The index on disk (rebuilt fast at start): an append-only binary log of
// add and remove records under DATA_DIR/search, compacted at start. A torn last record
// (crash mid-append) is dropped; start-up reconciles the index with the stored compounds,
// so whatever the file lost is recomputed rather than trusted.
import { closeSync, existsSync, fsyncSync, readFileSync, renameSync } from 'node:fs';
import { writeFullySync } from '../util/writeFully.ts';
import path from 'node:path';
import { mkdirPrivateSync, openPrivateSync } from '../files/privateFiles.ts';
import { FP_WORDS } from '../chem/fingerprints.ts';
import type { IndexEntry, StructureIndex } from './index.ts';

// 2: every entry has its pattern fingerprint (files of 1 could hold entries waiting for one).
const MAGIC = 'OTSEARCH2';
const ADD = 1;
const REMOVE = 2;
const FP_BYTES = FP_WORDS * 4;

export interface LoadResult {
  /** False when there was no usable file (missing, or made with other fingerprints). */
  loaded: boolean;
  /** Records that no longer count (replaced or removed entries, a torn tail). */
  garbage: number;
}

export class IndexFile {
  private fd: number | undefined;
  /** Set when an append failed: nothing more is appended until the next rewrite. */
  private stopped = false;
  /**
   * Records appended since the last write: they go to the file in one write once the
   * event loop's current turn is over (an upload's batch of compounds, or the posts that
   * finished together), not in one system call each. A crash loses at most that turn's
   * records, which start-up reconciliation computes again.
   */
  private pending: Buffer[] = [];
  private flushing: NodeJS.Immediate | undefined;

  /** `version` names the fingerprint definition; a file of another version is ignored. */
  constructor(readonly file: string, private readonly version: string) {}

  /** Replays the file into `index`. */
  load(index: StructureIndex): LoadResult {
    if (!existsSync(this.file)) return { loaded: false, garbage: 0 };
    const buf = readFileSync(this.file);
    const header = this.header();
    if (buf.length < header.length || !buf.subarray(0, header.length).equals(header)) return { loaded: false, garbage: 0 };
    let pos = header.length;
    let records = 0;
    let torn = 0;
    while (pos < buf.length) {
      if (pos + 5 > buf.length) { torn = 1; break; }
      const type = buf[pos];
      const len = buf.readUInt32LE(pos + 1);
      if (pos + 5 + len > buf.length) { torn = 1; break; }
      const body = buf.subarray(pos + 5, pos + 5 + len);
      pos += 5 + len;
      records++;
      if (type === ADD) index.add(decodeEntry(body));
      else if (type === REMOVE) index.remove(body.toString('utf8'));
    }
    return { loaded: true, garbage: records - index.size + torn };
  }

  append(entry: IndexEntry): void {
    this.write(record(ADD, encodeEntry(entry)));
  }

  appendRemove(uri: string): void {
    this.write(record(REMOVE, Buffer.from(uri, 'utf8')));
  }

  /** Writes the live entries to a new file and renames it over the old one (atomic). */
  rewrite(index: StructureIndex): void {
    // The pending records are in `index` already.
    this.pending = [];
    this.close();
    mkdirPrivateSync(path.dirname(this.file));
    const temp = this.file + '.tmp';
    const fd = openPrivateSync(temp, 'w');
    try {
      writeFullySync(fd, this.header());
      const chunk: Buffer[] = [];
      for (let slot = 0; slot < index.slots; slot++) {
        const entry = index.entry(slot);
        if (entry) chunk.push(record(ADD, encodeEntry(entry)));
        if (chunk.length >= 4096) writeFullySync(fd, Buffer.concat(chunk.splice(0)));
      }
      if (chunk.length) writeFullySync(fd, Buffer.concat(chunk));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, this.file);
    this.stopped = false;
  }

  close(): void {
    this.flush();
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }

  /**
   * The file is a cache of what the store holds (start-up reconciles the two), so a write
   * that fails (a full disk) must not fail the request that changed a compound: the file
   * stops growing, its torn tail is dropped at the next start and reconciliation redoes it.
   */
  private write(data: Buffer): void {
    if (this.stopped) return;
    this.pending.push(data);
    this.flushing ??= setImmediate(() => this.flush());
  }

  private flush(): void {
    clearImmediate(this.flushing);
    this.flushing = undefined;
    if (this.pending.length === 0) return;
    const data = this.pending.length === 1 ? this.pending[0]! : Buffer.concat(this.pending);
    this.pending = [];
    if (this.stopped) return;
    try {
      this.appendRecord(data);
    } catch {
      this.stopped = true;
      this.close();
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

function decodeEntry(b: Buffer): IndexEntry {
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
  const fp = (): Uint32Array => {
    const words = new Uint32Array(FP_WORDS);
    new Uint8Array(words.buffer).set(b.subarray(pos, pos + FP_BYTES));
    pos += FP_BYTES;
    return words;
  };
  const morgan = fp();
  const pattern = fp();
  const pickleLen = b.readUInt32LE(pos);
  const pickle = new Uint8Array(b.subarray(pos + 4, pos + 4 + pickleLen));
  return { uri, canonicalSmiles, inchiKey, morgan, pattern, pickle };
}
