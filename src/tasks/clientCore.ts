// While clients keep the event loop busy, job threads keep off one core.
//
// SCHED_IDLE (threadPriority.ts) lets the event loop preempt a job thread at once on a core
// they share. What it cannot reach is the machine below the kernel. On a two-vCPU virtual
// machine, a poll's p99 under a client that keeps the event loop busy rose from about 1 ms to
// 3 to 4 ms as soon as both cores ran SCHED_IDLE work, even two processes that only spin, and
// stayed near 1 to 1.5 ms while one core was left without it (docs/performance.md, "A core
// for the clients"). So while clients keep the event loop busy, every job thread is confined
// (sched_setaffinity(2)) to the process's cores but one. The event loop, like every other
// thread, may still run anywhere, and the scheduler moves it to the core left free. Jobs go
// on meanwhile on the other cores, taking turns there (jobTurns.ts), slower but never
// stopped, and get every core back once the load eases.
//
// Busy means: in one tick of TICK_MS, at least MIN_REQUESTS requests arrived and the event
// loop was busy at least MIN_UTILISATION of the time (performance.eventLoopUtilization).
// Requests alone would count a client waiting on a job it started, or a slow download;
// utilisation alone would count a job's own store writes. One busy tick confines the job
// threads; QUIET_TICKS ticks in a row that are not busy release them.
//
// Node has no binding for sched_setaffinity(2); util-linux's taskset(1), beside the chrt(1)
// that threadPriority.ts runs, sets it for one thread's id. One long-lived shell reads
// "cpus tid" lines and runs it for each, so the event loop never starts a process to move a
// thread (libuv forks the whole process for every spawn). Job threads are found as this
// process's threads under SCHED_IDLE or at JOB_THREAD_NICE (/proc/self/task/<tid>/stat,
// proc(5)): the job pool's, the forest's and the compactor's, wherever they were started.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import { JOB_THREAD_NICE } from './threadPriority.ts';
import { threadCpuTicks, threadStat } from './threadStat.ts';
import { giveTurn } from './jobTurns.ts';

/** How often the load is looked at, in milliseconds. */
export const TICK_MS = 100;
/** Requests a tick (200 a second) for the clients to count as keeping the event loop busy. */
export const MIN_REQUESTS = 20;
/** Share of a tick the event loop was busy, for the same. */
export const MIN_UTILISATION = 0.5;
/** Ticks in a row without that load before the job threads get every core back. */
export const QUIET_TICKS = 5;

/**
 * Ticks a job thread keeps its turn while the job threads take turns (jobTurns.ts), if it
 * uses the CPU meanwhile; one that did not gets no more ticks.
 */
export const TURN_TICKS = 10;

/** SCHED_IDLE in <linux/sched.h>. */
const SCHED_IDLE = 5;

/** Reads "cpus tid" lines and confines each thread to its cpus; ends with its input. */
const MOVER = 'while read -r cpus tid; do taskset -p -c "$cpus" "$tid" >/dev/null 2>&1; done';

/** The CPUs a Cpus_allowed_list names ("0-3,8"; proc(5)). */
export function cpuList(text: string): number[] {
  const cpus: number[] = [];
  for (const part of text.trim().split(',').filter(Boolean)) {
    const [from, to = from] = part.split('-').map(Number);
    for (let c = from!; c <= to!; c++) cpus.push(c);
  }
  return cpus;
}

/** The CPUs `tid` of this process may run on (the whole process's for its main thread). */
export function cpusOf(tid: number): number[] {
  const status = readFileSync(`/proc/self/task/${tid}/status`, 'utf8');
  return cpuList(/^Cpus_allowed_list:\s*(\S+)/m.exec(status)?.[1] ?? '');
}

/** Whether thread `tid` of this process is a job thread: under SCHED_IDLE or at JOB_THREAD_NICE and below. */
function isJobThread(tid: number): boolean | undefined {
  const stat = threadStat(tid);
  if (!stat) return undefined;
  return Number(stat[41 - 3]) === SCHED_IDLE || Number(stat[19 - 3]) >= JOB_THREAD_NICE;
}

/** Ids of this process's job threads. */
export function jobThreadIds(): number[] {
  return readdirSync('/proc/self/task').map(Number).filter((tid) => tid !== process.pid && isJobThread(tid));
}

/**
 * A thread sets its own policy once it has started, so one seen as ordinary is looked at
 * again until it is this old (milliseconds); after that it is taken as it is.
 */
const SETTLED_MS = 2000;

/**
 * The job threads, looked up as a tick can afford: a thread's stat is read when it is new
 * (and again while young), not every tick, since a busy process has dozens of threads and
 * each read is a system call or three on the event loop.
 */
class JobThreads {
  private readonly seen = new Map<number, { job: boolean; since: number }>();

  now(): number[] {
    const at = performance.now();
    const ids: number[] = [];
    const present = new Set<number>();
    for (const name of readdirSync('/proc/self/task')) {
      const tid = Number(name);
      if (tid === process.pid) continue;
      present.add(tid);
      let known = this.seen.get(tid);
      if (!known || (!known.job && at - known.since < SETTLED_MS)) {
        const job = isJobThread(tid);
        if (job === undefined) continue;
        known = { job, since: known?.since ?? at };
        this.seen.set(tid, known);
      }
      if (known.job) ids.push(tid);
    }
    for (const tid of this.seen.keys()) if (!present.has(tid)) this.seen.delete(tid);
    return ids;
  }
}

export interface ClientCoreOptions {
  tickMs?: number;
  minRequests?: number;
  minUtilisation?: number;
  quietTicks?: number;
  /** Told if the shell that moves the threads cannot be started (no job thread is moved then). */
  onError?: (err: Error) => void;
}

export class ClientCore {
  private requests = 0;
  private quiet = 0;
  private utilisation: EventLoopUtilization = performance.eventLoopUtilization();
  /** Job threads confined now. */
  private readonly placed = new Set<number>();
  private readonly threads = new JobThreads();
  private confinedNow = false;
  private timer: NodeJS.Timeout | undefined;
  /** The job thread whose turn it is (0: none chosen), the ticks it has had, and each thread's CPU time at the last tick. */
  private runner = 0;
  private runnerTicks = 0;
  private cpu = new Map<number, number>();
  private mover: ChildProcess | undefined;
  private readonly tickMs: number;
  private readonly minRequests: number;
  private readonly minUtilisation: number;
  private readonly quietTicks: number;

  private constructor(
    /** Every CPU the process may use, as taskset reads a list ("0,1,2,3"). */
    private readonly all: string,
    /** The CPUs job threads keep to while clients keep the event loop busy: all but the first. */
    private readonly some: string,
    private readonly options: ClientCoreOptions,
  ) {
    this.tickMs = options.tickMs ?? TICK_MS;
    this.minRequests = options.minRequests ?? MIN_REQUESTS;
    this.minUtilisation = options.minUtilisation ?? MIN_UTILISATION;
    this.quietTicks = options.quietTicks ?? QUIET_TICKS;
  }

  /**
   * Watches the load, or undefined where there is nothing to do or no way to do it: off
   * Linux, on a single core, or without taskset. Its timer keeps no process alive.
   */
  static start(options: ClientCoreOptions = {}): ClientCore | undefined {
    if (process.platform !== 'linux') return undefined;
    let cpus: number[];
    try {
      cpus = cpusOf(process.pid);
    } catch {
      return undefined; // no /proc
    }
    if (cpus.length < 2) return undefined;
    // taskset -p prints the affinity of a thread and exits 0: present and allowed.
    if (spawnSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore', timeout: 5000 }).status !== 0) return undefined;
    const core = new ClientCore(cpus.join(','), cpus.slice(1).join(','), options);
    // The shell is started now, not at the first busy tick: starting a process stalled the
    // event loop for 30 to 60 ms in a service that had grown (the fork copies its mappings),
    // and a busy tick is when clients are waiting.
    core.startMover();
    core.timer = setInterval(() => core.tick(), core.tickMs);
    core.timer.unref();
    return core;
  }

  /** Counts one request (the server's 'request' event). */
  request(): void {
    this.requests++;
  }

  /** True while job threads keep off a core. */
  get confined(): boolean {
    return this.confinedNow;
  }

  /** One tick: what the clients did since the last, then confine or release. */
  private tick(): void {
    const now = performance.eventLoopUtilization();
    const busy = performance.eventLoopUtilization(now, this.utilisation).utilization;
    this.utilisation = now;
    const requests = this.requests;
    this.requests = 0;
    this.observe(requests, busy);
  }

  /** The decision of a tick, given its requests and event-loop utilisation (0 to 1). */
  observe(requests: number, utilisation: number): void {
    const busy = requests >= this.minRequests && utilisation >= this.minUtilisation;
    if (busy) this.quiet = 0;
    else if (this.confinedNow && ++this.quiet >= this.quietTicks) this.release();
    if (!this.confinedNow && !busy) return;
    // One look at the threads serves both: confining the new ones, and the turns.
    const threads = this.threads.now();
    if (busy) this.confine(threads);
    this.takeTurns(threads);
  }

  /**
   * While confined, one job thread runs at a time (jobTurns.ts): the one whose turn it is
   * keeps it for TURN_TICKS ticks while it uses the CPU, then the next in order of id gets
   * it; one that used none in the last tick (no work, or waiting on threads of its own)
   * hands it on at once, so every job thread gets turns.
   */
  private takeTurns(jobThreads: readonly number[]): void {
    const threads = [...jobThreads].sort((a, b) => a - b);
    const used = new Map<number, number>();
    const cpu = new Map<number, number>();
    for (const tid of threads) {
      const ticks = threadCpuTicks(tid);
      if (ticks === undefined) continue;
      cpu.set(tid, ticks);
      used.set(tid, ticks - (this.cpu.get(tid) ?? ticks));
    }
    this.cpu = cpu;
    const keep = this.runner !== 0 && cpu.has(this.runner) && ++this.runnerTicks < TURN_TICKS && (this.runnerTicks === 1 || (used.get(this.runner) ?? 0) > 0);
    if (keep || threads.length === 0) return;
    const next = threads.find((t) => t > this.runner) ?? threads[0]!;
    this.runner = next;
    this.runnerTicks = 0;
    giveTurn(next);
  }

  /** Confines every job thread not yet confined (threads start and end meanwhile). */
  confine(jobThreads: readonly number[] = this.threads.now()): void {
    this.confinedNow = true;
    const threads = new Set(jobThreads);
    for (const tid of this.placed) if (!threads.has(tid)) this.placed.delete(tid);
    for (const tid of threads) {
      if (this.placed.has(tid)) continue;
      this.placed.add(tid);
      this.move(tid, this.some);
    }
  }

  /** Gives every confined job thread all of the process's cores back. */
  release(): void {
    this.confinedNow = false;
    this.quiet = 0;
    this.runner = 0;
    giveTurn(0);
    for (const tid of this.placed) this.move(tid, this.all);
    this.placed.clear();
  }

  /** The shell that moves threads (MOVER); started again by the next move if it has ended. */
  private startMover(): ChildProcess {
    const mover = spawn('sh', ['-c', MOVER], { stdio: ['pipe', 'ignore', 'ignore'] });
    mover.unref();
    (mover.stdin as unknown as { unref?: () => void } | null)?.unref?.();
    mover.stdin?.on('error', () => undefined);
    mover.once('error', (err) => this.options.onError?.(err));
    mover.once('exit', () => {
      if (this.mover === mover) this.mover = undefined;
    });
    this.mover = mover;
    return mover;
  }

  private move(tid: number, cpus: string): void {
    (this.mover ?? this.startMover()).stdin?.write(`${cpus} ${tid}\n`);
  }

  /** Stops watching and gives the job threads every core back. */
  close(): void {
    clearInterval(this.timer);
    if (this.confinedNow) this.release();
    this.mover?.stdin?.end();
    this.mover = undefined;
  }
}
