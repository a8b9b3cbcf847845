// Progress bars on stderr (stdout carries only result URIs, for scripts): bytes while
// uploading, then the task's title and percent while it runs; a bar ends its own line
// before a result is printed. Off when stderr is not a terminal, unless forced.
import { Readable } from 'node:stream';
import { SingleBar, Presets } from 'cli-progress';

export interface Bar {
  /** `counts`: show value/total (bytes of an upload) after the percentage. */
  start: (total: number, label: string, counts?: boolean) => void;
  update: (value: number, label?: string) => void;
  stop: () => void;
}

let forced = false;

/** Draws bars even when stderr is not a terminal (--progress), one line per redraw. */
export function forceProgress(): void {
  forced = true;
}

export function progressBar(): Bar {
  if (!forced && !process.stderr.isTTY) return { start: () => {}, update: () => {}, stop: () => {} };
  const bar = new SingleBar({
    stream: process.stderr, format: '{label} [{bar}] {percentage}%{counts}', hideCursor: true, clearOnComplete: false,
    noTTYOutput: forced, notTTYSchedule: 200,
  }, Presets.shades_classic);
  let running = false;
  let showCounts = false;
  let total_ = 0;
  return {
    start: (total, label, counts = false) => {
      if (running) bar.stop();
      bar.start(total, 0, { label, counts: counts ? ` | ${0}/${total}` : '' });
      showCounts = counts;
      total_ = total;
      running = true;
    },
    update: (value, label) => bar.update(value, { ...(label === undefined ? {} : { label }), counts: showCounts ? ` | ${value}/${total_}` : '' }),
    stop: () => {
      if (running) bar.stop();
      running = false;
    },
  };
}

/** A file's bytes as a web stream that reports how many have been sent. */
export function countingStream(data: Buffer, onBytes: (sent: number) => void, chunk = 64 * 1024): ReadableStream<Uint8Array> {
  let sent = 0;
  const node = Readable.from((function* () {
    for (let i = 0; i < data.length; i += chunk) {
      const part = data.subarray(i, i + chunk);
      sent += part.length;
      onBytes(sent);
      yield part;
    }
  })());
  return Readable.toWeb(node) as ReadableStream<Uint8Array>;
}
