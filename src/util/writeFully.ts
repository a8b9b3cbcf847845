// write(2) may write less than it was given, most of all on a disk that is filling up,
// and then says so only by its count. Files that must be whole (snapshots, index files)
// are written through this loop: the rest is written until done or refused with ENOSPC.
import { writeSync } from 'node:fs';

export function writeFullySync(fd: number, data: string | Buffer): void {
  const buf = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  let offset = 0;
  while (offset < buf.length) offset += writeSync(fd, buf, offset, buf.length - offset);
}
