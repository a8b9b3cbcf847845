// Task ids: UUID version 7 (RFC 9562), so ids sort by creation time and GET /task lists
// oldest first without a date index.
import { randomBytes } from 'node:crypto';

// RFC 9562 §6.2 method 1: within one millisecond the 12-bit rand_a field is a counter, so
// two ids minted in the same millisecond still sort in the order they were made.
let lastMs = 0;
let counter = 0;

export function uuidv7(now = Date.now()): string {
  if (now <= lastMs) {
    counter += 1;
    // Counter overflow borrows the next millisecond, as the RFC allows.
    if (counter > 0xfff) {
      lastMs += 1;
      counter = 0;
    }
  } else {
    lastMs = now;
    counter = 0;
  }
  const b = randomBytes(16);
  b.writeUIntBE(lastMs, 0, 6);
  b[6] = 0x70 | (counter >> 8);
  b[7] = counter & 0xff;
  b[8] = (b[8]! & 0x3f) | 0x80; // 16 random bytes
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** True for a well-formed task id (SPEC §7.1: anything else is a "wrong task_id", 400). */
export const isTaskId = (id: string): boolean => UUID.test(id);
