// Append-only journal: every acknowledged write is here, fsynced, before the client is
// answered. Records are framed [length u32][crc32 u32][payload], so a torn last record
// (power cut mid-append) is detected and replay stops cleanly before it. The journal is
// a sequence of segments (journal.N.log); a full segment is closed and a new one begun,
// so a snapshot can be built from closed segments while writes continue.
import { closeSync, constants, fdatasync, fdatasyncSync, readFileSync, existsSync, ftruncateSync, fstatSync, promises as fsp, write } from 'node:fs';
import { promisify } from 'node:util';
import { crc32 } from 'node:zlib';
import { segmentFile } from './layout.ts';
import { openPrivateSync } from '../../files/privateFiles.ts';
import { isSpaceError } from '../../util/spaceError.ts';
import { LoopBudget } from './loopBudget.ts';

const writeAsync = promisify(write);
const fdatasyncAsync = promisify(fdatasync);

const HEADER = 8;

/**
 * Segments are opened with O_DSYNC: a write returns once its bytes (and the file size that
 * reaches them) are on disk, as write then fdatasync would (POSIX.1-2008 "Synchronized I/O
 * Data Integrity Completion"). One call instead of two sends each group commit to the
 * thread pool once, not twice: a POST /compound costs the event loop a wake-up less.
 */
const APPEND_FLAGS = constants.O_RDWR | constants.O_CREAT | constants.O_APPEND | constants.O_DSYNC;

/** Longest run of record applications before the event loop gets a turn, when the journal has no budget of its owner's (see settle). */
const SETTLE_SLICE_MS = 3;

export interface JournalRead {
  records: Buffer[];
  /** Byte length of the intact prefix; anything after it was torn. */
  validLength: number;
  torn: boolean;
}

/** Reads every intact record of a journal file (only its first `limit` bytes, if given). */
export function readJournal(file: string, limit?: number): JournalRead {
  if (!existsSync(file)) return { records: [], validLength: 0, torn: false };
  const whole = readFileSync(file);
  const buf = limit === undefined ? whole : whole.subarray(0, limit);
  const records: Buffer[] = [];
  let pos = 0;
  while (pos + HEADER <= buf.length) {
    const len = buf.readUInt32LE(pos);
    const sum = buf.readUInt32LE(pos + 4);
    if (pos + HEADER + len > buf.length) break;
    const payload = buf.subarray(pos + HEADER, pos + HEADER + len);
    if (crc32(payload) !== sum) break;
    records.push(payload);
    pos += HEADER + len;
  }
  return { records, validLength: pos, torn: pos !== buf.length };
}

export function frame(payload: Buffer): Buffer {
  const head = Buffer.alloc(HEADER);
  head.writeUInt32LE(payload.length, 0);
  head.writeUInt32LE(crc32(payload), 4);
  return Buffer.concat([head, payload]);
}

interface Pending {
  data: Buffer;
  /**
   * Runs once the record is durable, in journal order; the writer is answered once what it
   * returns has resolved (the store's thread has applied the record).
   */
  onDurable?: () => void | Promise<void>;
  resolve: () => void;
  reject: (e: Error) => void;
}

export interface JournalOptions {
  dir: string;
  /** The segment to append to (created if absent). */
  segment: number;
  /** Cut the segment to this length first (a torn tail found by replay). */
  validLength?: number;
  /** Records already in the segment. */
  records?: number;
  /** Close the segment after this many records (0 = no limit) ... */
  maxRecords: number;
  /** ... or this many bytes. */
  maxBytes: number;
  /** Called with the new segment's index after a rotation (segments below it are closed). */
  onRotate?: (segment: number) => void;
  /** The budget of synchronous work per turn of the event loop that applying records takes part in (loopBudget.ts). */
  budget?: LoopBudget;
}

/** Where the durable (and applied) part of the journal ends. */
export interface JournalPosition {
  segment: number;
  length: number;
}

/**
 * Appends records with group commit: writes that arrive while an fsync is in flight are
 * written and fsynced together, so 32 concurrent writers cost one fsync, not 32.
 */
export class Journal {
  private fd: number;
  private pending: Pending[] = [];
  private flushing = false;
  private failed: Error | undefined;
  /** A write failed for lack of room: the segment may hold a torn tail to cut before the next. */
  private torn = false;
  private rotateRequested = false;
  private rotated: Array<() => void> = [];
  segment: number;
  /** Records and durable bytes of the current segment. */
  records: number;
  private bytes: number;
  private readonly budget: LoopBudget;

  /** Set once writing or syncing the file failed: nothing more can be made durable. */
  get failure(): Error | undefined {
    return this.failed;
  }

  constructor(private readonly options: JournalOptions) {
    this.segment = options.segment;
    this.budget = options.budget ?? new LoopBudget(SETTLE_SLICE_MS);
    this.fd = openPrivateSync(segmentFile(options.dir, this.segment), APPEND_FLAGS);
    if (options.validLength !== undefined) {
      // Cut a torn tail so new records follow the last intact one.
      ftruncateSync(this.fd, options.validLength);
      fdatasyncSync(this.fd);
    }
    this.bytes = fstatSync(this.fd).size;
    this.records = options.records ?? 0;
  }

  position(): JournalPosition {
    return { segment: this.segment, length: this.bytes };
  }

  append(payload: Buffer, onDurable?: () => void | Promise<void>): Promise<void> {
    if (this.failed) return Promise.reject(this.failed);
    return new Promise((resolve, reject) => {
      this.pending.push({ data: frame(payload), onDurable, resolve, reject });
      if (!this.flushing) void this.flush();
    });
  }

  /** Closes the current segment (once what is pending is durable) and begins the next. */
  rotate(): Promise<void> {
    if (this.failed) return Promise.reject(this.failed);
    return new Promise((resolve) => {
      this.rotateRequested = true;
      this.rotated.push(resolve);
      if (!this.flushing) void this.flush();
    });
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    while (this.pending.length > 0 || this.rotateRequested) {
      const batch = this.pending;
      this.pending = [];
      try {
        if (batch.length > 0) {
          if (this.torn) await this.cutTornTail();
          const data = Buffer.concat(batch.map((p) => p.data));
          // Durable once written: the segment is opened O_DSYNC (APPEND_FLAGS).
          await this.writeAll(data);
          this.bytes += data.length;
          this.records += batch.length;
        }
        await this.settle(batch);
      } catch (e) {
        if (!isSpaceError(e)) {
          this.fail(e as Error, batch);
          continue;
        }
        // Disk full: this batch is refused, nothing before it is lost, and the next append
        // cuts whatever part of the batch reached the file before it writes.
        this.torn = true;
        for (const p of batch) p.reject(e as Error);
      }
      const { maxRecords, maxBytes } = this.options;
      if (this.rotateRequested || (maxRecords > 0 && this.records >= maxRecords) || this.bytes >= maxBytes) {
        try {
          await this.nextSegment();
        } catch (e) {
          if (!isSpaceError(e)) this.fail(e as Error, []);
          // No room for a new segment: keep appending to this one and try again later.
          this.rotateRequested = false;
          for (const r of this.rotated.splice(0)) r();
        }
      }
    }
    this.flushing = false;
  }

  /**
   * write(2) may write less than asked (a disk that fills up mid-write does exactly that)
   * and say so only by its count: the rest is written until done or refused with an error.
   */
  private async writeAll(data: Buffer): Promise<void> {
    let offset = 0;
    while (offset < data.length) {
      const { bytesWritten } = await writeAsync(this.fd, data, offset, data.length - offset, null);
      offset += bytesWritten;
    }
  }

  /** Truncates the segment to its last durable record (a failed append may have left part of itself). */
  private async cutTornTail(): Promise<void> {
    ftruncateSync(this.fd, this.bytes);
    await fdatasyncAsync(this.fd);
    this.torn = false;
  }

  /**
   * Hands a durable batch on in order, each record in the budget of its turn of the event
   * loop (its hand-over counts its triples for the store), so requests are not kept waiting
   * for a whole batch; each writer is answered once its record is applied.
   */
  private async settle(batch: Pending[]): Promise<void> {
    for (const p of batch) {
      await this.budget.turn();
      try {
        const applied = p.onDurable?.();
        if (applied) applied.then(p.resolve, p.reject);
        else p.resolve();
      } catch (e) {
        p.reject(e as Error);
      }
    }
  }

  private fail(e: Error, batch: Pending[]): void {
    this.failed = e;
    for (const p of [...batch, ...this.pending]) p.reject(e);
    this.pending = [];
    this.rotateRequested = false;
    for (const r of this.rotated.splice(0)) r();
  }

  private async nextSegment(): Promise<void> {
    if (this.torn) await this.cutTornTail();
    // The next file is opened before this one is closed, so a failure leaves this one in use.
    const next = openPrivateSync(segmentFile(this.options.dir, this.segment + 1), APPEND_FLAGS);
    closeSync(this.fd);
    this.fd = next;
    this.segment++;
    this.bytes = 0;
    this.records = 0;
    this.rotateRequested = false;
    // The new file's directory entry must be durable before records in it are acknowledged.
    await fsyncDir(this.options.dir);
    for (const r of this.rotated.splice(0)) r();
    this.options.onRotate?.(this.segment);
  }

  /** Resolves once everything appended so far is on disk. */
  async drain(): Promise<void> {
    while (this.flushing || this.pending.length > 0) await new Promise((r) => setTimeout(r, 1));
  }

  async close(): Promise<void> {
    await this.drain();
    closeSync(this.fd);
  }
}

export async function fsyncDir(dir: string): Promise<void> {
  const fh = await fsp.open(dir, 'r');
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
}
