// A thread's line in /proc/<pid>/task/<tid>/stat (proc(5)): what clientCore.ts reads of this
// process's threads, and the benchmarks of a service's threads.
import { readFileSync } from 'node:fs';

/** Fields 3 onwards of thread `tid`'s stat line, so that field n is at index n - 3 (proc(5)); undefined once it ended. */
export function threadStat(tid: number, pid: number | 'self' = 'self'): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces: count the fields after its parenthesis.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined; // the thread has ended
  }
}

/** CPU time thread `tid` has used, in clock ticks (utime + stime, fields 14 and 15), or undefined once it ended. */
export function threadCpuTicks(tid: number, pid: number | 'self' = 'self'): number | undefined {
  const stat = threadStat(tid, pid);
  return stat ? Number(stat[14 - 3]) + Number(stat[15 - 3]) : undefined;
}
