// Append-only journal: every acknowledged write is here, fsynced, before the client is
// answered. Records are framed [length u32][crc32 u32][payload], so a torn last record
// (power cut mid-append) is detected and replay stops cleanly before it.
import { closeSync, fdatasync, fdatasyncSync, openSync, readFileSync, existsSync, ftruncateSync, promises as fsp, write } from 'node:fs';
import { promisify } from 'node:util';
import { crc32 } from 'node:zlib';

const writeAsync = promisify(write);
const fdatasyncAsync = promisify(fdatasync);

const HEADER = 8;

export interface JournalRead {
  records: Buffer[];
  /** Byte length of the intact prefix; anything after it was torn. */
  validLength: number;
  torn: boolean;
}

/** Reads every intact record of a journal file. */
export function readJournal(file: string): JournalRead {
  if (!existsSync(file)) return { records: [], validLength: 0, torn: false };
  const buf = readFileSync(file);
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
  /** Runs once the record is durable, in journal order, before the writer is answered. */
  onDurable?: () => void;
  resolve: () => void;
  reject: (e: Error) => void;
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
  /** Records appended to this file since it was opened or truncated. */
  records = 0;

  constructor(readonly file: string, validLength?: number) {
    this.fd = openSync(file, 'a+');
    if (validLength !== undefined) {
      // Cut a torn tail so new records follow the last intact one.
      ftruncateSync(this.fd, validLength);
      fdatasyncSync(this.fd);
    }
  }

  append(payload: Buffer, onDurable?: () => void): Promise<void> {
    if (this.failed) return Promise.reject(this.failed);
    return new Promise((resolve, reject) => {
      this.pending.push({ data: frame(payload), onDurable, resolve, reject });
      this.records++;
      if (!this.flushing) void this.flush();
    });
  }

  private async flush(): Promise<void> {
    this.flushing = true;
    while (this.pending.length > 0) {
      const batch = this.pending;
      this.pending = [];
      try {
        const data = Buffer.concat(batch.map((p) => p.data));
        await writeAsync(this.fd, data, 0, data.length, null);
        await fdatasyncAsync(this.fd);
      } catch (e) {
        this.failed = e as Error;
        for (const p of batch) p.reject(this.failed);
        for (const p of this.pending) p.reject(this.failed);
        this.pending = [];
        continue;
      }
      for (const p of batch) {
        try {
          p.onDurable?.();
          p.resolve();
        } catch (e) {
          p.reject(e as Error);
        }
      }
    }
    this.flushing = false;
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
