// The machine's state around a figure: waits for it to go quiet between a figure and its
// baseline, so that neither is measured while the other's leftovers (a search index catching
// up, helper threads finishing their compiles, a child process exiting) still use the cores,
// and reads the load average printed beside them.
import { readFileSync } from 'node:fs';

/** Busy and total jiffies of all cores, from the first line of /proc/stat. */
function cpuTimes(): { busy: number; total: number } {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const total = fields.reduce((a, b) => a + b, 0);
  // idle and iowait
  return { busy: total - fields[3]! - (fields[4] ?? 0), total };
}

/**
 * Resolves once the whole machine has used under `share` of its cores for half a second, or
 * after `maxMs` (a machine that never goes quiet still gets its figures, with the load
 * average printed beside them).
 */
export async function untilIdle(share = 0.15, maxMs = 60_000): Promise<void> {
  for (const end = Date.now() + maxMs; Date.now() < end;) {
    const before = cpuTimes();
    await new Promise((r) => setTimeout(r, 500));
    const after = cpuTimes();
    if ((after.busy - before.busy) / Math.max(1, after.total - before.total) < share) return;
  }
}

/** The 1-, 5- and 15-minute load averages, to print beside figures. */
export const loadAverage = (): string => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
