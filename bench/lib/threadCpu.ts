// CPU time of each thread of a process, from /proc/<pid>/task/<tid>/stat (proc(5): utime and
// stime, in clock ticks of USER_HZ), so that a figure can say
// where a service's cores went: its event loop, its busiest other threads, the rest.
import { readdirSync, readFileSync } from 'node:fs';

/** CPU time thread `tid` of `pid` has used, in clock ticks (utime + stime, fields 14 and 15), or undefined once it ended. */
function threadCpuTicks(tid: number, pid: number): number | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
  } catch {
    return undefined; // the thread has ended
  }
  // The command name (field 2) may hold spaces: count the fields after its parenthesis, field n at n - 3.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return Number(fields[14 - 3]) + Number(fields[15 - 3]);
}

/** USER_HZ: the unit of /proc's CPU times, 100 on every Linux architecture Node runs on. */
const TICKS_PER_SECOND = 100;

/** Clock ticks used so far by each thread of `pid`, by thread id (empty off Linux). */
export function threadTicks(pid: number): Map<number, number> {
  const ticks = new Map<number, number>();
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return ticks;
  }
  for (const tid of tids.map(Number)) {
    // undefined: the thread ended between the listing and the read
    const t = threadCpuTicks(tid, pid);
    if (t !== undefined) ticks.set(tid, t);
  }
  return ticks;
}

export interface CpuShares {
  /** The process's first thread: a Node service's event loop. */
  main: number;
  /** The `busiest` other threads that used the most CPU, most first. */
  busiest: number[];
  /** Every other thread together. */
  rest: number;
}

/** What every thread of `shares` used together. */
export const totalCpu = (shares: CpuShares): number => shares.main + shares.busiest.reduce((a, b) => a + b, 0) + shares.rest;

/** Microseconds of CPU each part of `pid` used between two threadTicks readings, per `count` units of work. */
export function cpuPer(pid: number, before: Map<number, number>, after: Map<number, number>, count: number, busiest: number): CpuShares {
  const micros = (ticks: number) => (ticks * 1e6) / TICKS_PER_SECOND / count;
  const used = [...after].map(([tid, t]) => ({ tid, ticks: t - (before.get(tid) ?? 0) }));
  const others = used.filter((u) => u.tid !== pid).sort((a, b) => b.ticks - a.ticks);
  return {
    main: micros(used.find((u) => u.tid === pid)?.ticks ?? 0),
    busiest: others.slice(0, busiest).map((u) => micros(u.ticks)),
    rest: micros(others.slice(busiest).reduce((sum, u) => sum + u.ticks, 0)),
  };
}
