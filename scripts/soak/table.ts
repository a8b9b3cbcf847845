// The soak's findings as a Markdown table, each figure beside its goal.
import os from 'node:os';
import type { LoadResult } from './load.ts';
import type { SlowResult } from './slow.ts';
import { slopePerMinute, type MemorySample, type SteadyResult } from './steady.ts';
import type { KillResult } from './kill.ts';
import type { DiskFullResult } from './diskFull.ts';
import type { StoreKillResult } from './killStore.ts';
import type { SoakOptions } from './run.ts';
import { quantile } from './stats.ts';

export interface SoakResult {
  options: SoakOptions;
  load: LoadResult;
  steady: SteadyResult;
  slow: SlowResult;
  kills: Array<KillResult | StoreKillResult>;
  diskFull: DiskFullResult;
}

const KILLED_DURING: Record<string, string> = {
  upload: '10k-row CSV upload',
  model: 'random-forest build',
  snapshot: 'snapshot being written (SNAPSHOT_EVERY=10, small uploads)',
  compaction: 'journal compaction: files the new snapshot replaces being deleted',
};

const tally = (counts: Record<string, number>) => Object.entries(counts).map(([k, n]) => `${n} × ${k}`).join(', ') || 'none';

const ms = (x: number) => (Number.isFinite(x) ? `${Math.round(x)} ms` : 'no answer');
const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);

/** The steady phase: RSS beside the store's size, while nothing written stays. */
function steadyLines(s: SteadyResult): string[] {
  const lines = [`### 1b. Steady state: ${s.connections} connections for ${s.seconds} s, nothing written stays`, ''];
  lines.push('| kind | requests | 2xx | 503/429 + Retry-After | errors | no answer | p50 | p99 |', '|---|---|---|---|---|---|---|---|');
  for (const k of s.recorder.kinds()) {
    const x = s.recorder.summary(k);
    lines.push(`| ${k} | ${x.n} | ${x.ok} | ${x.busy} | ${x.bad} | ${x.failed} | ${ms(x.p50)} | ${ms(x.p99)} |`);
  }
  const warmAt = Math.floor(s.rss.length / 4);
  const warm = s.rss.slice(warmAt);
  const counts = s.triples.filter(([t]) => t >= warmAt).map(([, n]) => n);
  const mib = (x: number | undefined) => (x === undefined ? 'n/a' : x.toFixed(0));
  lines.push('', '| measure | value | goal |', '|---|---|---|');
  lines.push(`| triples in the store after warm-up: first / lowest / highest / last | ${counts[0] ?? 'n/a'} / ${counts.length ? Math.min(...counts) : 'n/a'} / ${counts.length ? Math.max(...counts) : 'n/a'} / ${counts.at(-1) ?? 'n/a'} | level |`);
  lines.push(`| RSS (MiB): start / after warm-up (${warmAt} s) / peak / end | ${mib(s.rss[0])} / ${mib(warm[0])} / ${mib(Math.max(...s.rss))} / ${mib(s.rss.at(-1))} | |`);
  lines.push(`| RSS slope after warm-up (least squares) | ${slopePerMinute(warm).toFixed(2)} MiB/min | about 0 |`);
  const halves = [warm.slice(0, Math.floor(warm.length / 2)), warm.slice(Math.floor(warm.length / 2))];
  lines.push(`| RSS slope, first and second half after warm-up | ${halves.map((h) => slopePerMinute(h).toFixed(2)).join(' / ')} MiB/min | falling to about 0 |`);
  // Which part grows: each kind of thread's V8 heap and external memory (WASM memories, such as
  // Oxigraph's in the main thread and the SPARQL replica and RDKit's in the job threads, and
  // buffers), or what no thread counts (native allocations, the allocator's arenas).
  const first = memoryAt(s.memory, warmAt);
  const last = memoryAt(s.memory, s.rss.length);
  if (first && last) {
    const m = (x: number) => (x / 1048576).toFixed(0);
    const kinds = [...new Set([...first.byKind.keys(), ...last.byKind.keys()])].sort((a, b) => (a === 'main' ? -1 : b === 'main' ? 1 : a.localeCompare(b)));
    for (const kind of kinds) {
      const [a, b] = [first.byKind.get(kind), last.byKind.get(kind)];
      // The matchers are processes of their own (their RSS is not the service's).
      const who = kind === 'main' ? 'main thread' : kind === 'matcher' ? 'matcher processes' : `${kind} threads`;
      lines.push(`| ${kind === 'main' ? who : `${who} (${a?.threads ?? 0} → ${b?.threads ?? 0} thread(s))`}: V8 heap in use, after warm-up → end | ${m(a?.heapUsed ?? 0)} → ${m(b?.heapUsed ?? 0)} MiB | level |`);
      lines.push(`| ${who}: external (WASM, buffers), after warm-up → end | ${m(a?.external ?? 0)} → ${m(b?.external ?? 0)} MiB | level once WASM reached its high-water mark |`);
      const modules = [...new Set([...Object.keys(a?.wasm ?? {}), ...Object.keys(b?.wasm ?? {})])].sort();
      if (modules.length > 0) {
        const sizes = modules.map((name) => `${name} ${m(a?.wasm[name] ?? 0)} → ${m(b?.wasm[name] ?? 0)}`).join(', ');
        lines.push(`| ${who}: of which WASM memories (their size, touched or not), after warm-up → end | ${sizes} MiB | level |`);
      }
      lines.push(`| ${who}: of which buffers (cached representations, at most 32 MiB, and sockets' data), after warm-up → end | ${m(a?.arrayBuffers ?? 0)} → ${m(b?.arrayBuffers ?? 0)} MiB | level |`);
    }
    lines.push(`| the rest of RSS (native, allocator; no thread counts it), after warm-up → end | ${m(first.rest)} → ${m(last.rest)} MiB | level |`);
  }
  return lines;
}

interface KindMemory {
  threads: number;
  heapUsed: number;
  heapTotal: number;
  external: number;
  arrayBuffers: number;
  wasm: Record<string, number>;
}

interface ThreadsMemory {
  byKind: Map<string, KindMemory>;
  /** RSS less every live thread's V8 heap and external memory. */
  rest: number;
}

/**
 * Every thread's memory around second `t` of the load: each thread's last sample in the ten
 * seconds before it. A thread samples only when its event loop is free, so one busy with a job
 * may be a few seconds behind; a thread that ended longer ago (a recycled replica) no longer
 * counts.
 */
function memoryAt(samples: readonly MemorySample[], t: number): ThreadsMemory | undefined {
  const main = samples.filter((x) => x.kind === 'main' && x.t <= t + 0.5).at(-1);
  if (!main) return undefined;
  const latest = new Map<number, MemorySample>();
  for (const x of samples) if (x.t <= t + 0.5 && x.t >= t - 10) latest.set(x.thread, x);
  const byKind = new Map<string, KindMemory>();
  let counted = 0;
  for (const x of latest.values()) {
    const k = byKind.get(x.kind) ?? { threads: 0, heapUsed: 0, heapTotal: 0, external: 0, arrayBuffers: 0, wasm: {} };
    k.threads++;
    k.heapUsed += x.heapUsed;
    k.heapTotal += x.heapTotal;
    k.external += x.external;
    k.arrayBuffers += x.arrayBuffers ?? 0;
    for (const [name, size] of Object.entries(x.wasm ?? {})) k.wasm[name] = (k.wasm[name] ?? 0) + size;
    byKind.set(x.kind, k);
    counted += x.heapTotal + x.external;
  }
  return { byKind, rest: main.rss - counted };
}

/** The steady phase run alone (npm run soak -- --steady). */
export function steadyReport(s: SteadyResult): string {
  const head = `Soak, steady phase alone, ${new Date().toISOString()}, Node ${process.version}, ${os.cpus().length} cores, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`;
  return [head, '', ...steadyLines(s)].join('\n');
}

export function report(r: SoakResult): string {
  const { load, slow } = r;
  const lines: string[] = [];
  lines.push(`Soak (${r.options.mode} mode), ${new Date().toISOString()}, Node ${process.version}, ${os.cpus().length} cores, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`, '');
  lines.push(`### 1. Load: ${load.connections} connections for ${load.seconds} s`, '');
  lines.push('| kind | requests | 2xx | 503/429 + Retry-After | errors | no answer | p50 | p99 | max |', '|---|---|---|---|---|---|---|---|---|');
  for (const k of load.recorder.kinds()) {
    const s = load.recorder.summary(k);
    lines.push(`| ${k} | ${s.n} | ${s.ok} | ${s.busy} | ${s.bad} | ${s.failed} | ${ms(s.p50)} | ${ms(s.p99)} | ${ms(s.max)} |`);
  }
  const t = load.recorder.total();
  lines.push(`| **all** | ${t.n} | ${t.ok} | ${t.busy} | ${t.bad} | ${t.failed} | | | |`, '');
  const rss = load.rss;
  const warm = rss.slice(Math.floor(rss.length / 4));
  const probe = sorted(load.probeMs);
  lines.push(`- error rate (non-2xx other than 503 or 429 with Retry-After, or no answer): ${((100 * (t.bad + t.failed)) / Math.max(1, t.n)).toFixed(2)} % (goal 0)`);
  lines.push(`- RSS (MiB, sampled every second): start ${rss[0]?.toFixed(0)}, after warm-up ${warm[0]?.toFixed(0)}, peak ${Math.max(...rss).toFixed(0)}, end ${rss.at(-1)?.toFixed(0)}`);
  lines.push(`- cheap GET /algorithm probe meanwhile (event-loop delay stand-in): p50 ${ms(quantile(probe, 0.5))}, p99 ${ms(quantile(probe, 0.99))}, ${probe.length} probes`);
  if (load.recorder.samples.length) lines.push(`- unexpected answers (first ${load.recorder.samples.length}): ${load.recorder.samples.map((s) => '`' + s.replace(/\s+/g, ' ').slice(0, 160) + '`').join('; ')}`);
  lines.push('', ...steadyLines(r.steady));
  lines.push('', `### 2. Slow and broken clients for ${slow.seconds} s (REQUEST_TIMEOUT_MS=${r.options.requestTimeoutMs}, HEADERS_TIMEOUT_MS=${r.options.headersTimeoutMs})`, '');
  const sp = sorted(slow.probeMs);
  lines.push('| measure | value | goal |', '|---|---|---|');
  lines.push(`| connections sending headers at 1 byte/s | ${slow.slowHeaders} | |`);
  lines.push(`| connections sending a body at 1 byte/s | ${slow.slowBodies} | |`);
  lines.push(`| of these ended by the service within the phase | ${slow.endedByServer} (${slow.answered408} with 408) | all |`);
  lines.push(`| uploads broken off mid-body / downloads broken off mid-answer | ${slow.brokenUploads} / ${slow.brokenDownloads} | |`);
  lines.push(`| probe GET /algorithm meanwhile: p50 / p99 / failed | ${ms(quantile(sp, 0.5))} / ${ms(quantile(sp, 0.99))} / ${sp.filter((x) => !Number.isFinite(x)).length} of ${sp.length} | served, 0 failed |`);
  lines.push(`| descriptor jobs submitted by clients that hung up at once / tasks created | ${slow.abandoned} / ${slow.abandonedTasks} | |`);
  lines.push(`| most jobs Queued or Running at once (JOB_QUOTA=${slow.jobQuota}) | ${slow.maxLive} | at most the quota |`);
  lines.push(`| abandoned jobs still unfinished / seconds until none was | ${slow.unfinished} / ${slow.drainSeconds.toFixed(1)} s | 0 |`);
  lines.push(`| server open files before / after | ${slow.fdsBefore} / ${slow.fdsAfter} | back near the start |`);
  lines.push(`| files left in DATA_DIR/uploads | ${slow.uploadsLeft} | 0 |`, '');
  lines.push('### 3. SIGKILL at random points, then restart on the same data', '');
  lines.push('| during | kills | landed in the window aimed at | acknowledged | lost | half-written visible | left Running/Queued | upload bodies left | completed after restart | check-store at the end |', '|---|---|---|---|---|---|---|---|---|---|');
  for (const k of r.kills) {
    const store = 'inWindow' in k;
    lines.push(`| ${KILLED_DURING[k.kind] ?? k.kind} | ${k.kills} | ${store ? k.inWindow : 'n/a'} | ${k.acknowledged} | ${k.lost} | ${k.halfWritten} | ${k.strandedRunning} | ${k.uploadsLeft} | ${store ? 'n/a' : k.completedAfterRestart} | ${store ? (k.checkStoreFailures === 0 ? 'consistent' : 'problems') : 'n/a'} |`);
  }
  const problems = r.kills.flatMap((k) => k.problems);
  if (problems.length) lines.push('', 'Problems:', ...problems.map((p) => `- ${p}`));
  const f = r.diskFull;
  lines.push('', `### 4. Disk full: DATA_DIR on a tmpfs filled to the last byte, ${f.cycles} cycles`, '');
  if (f.skipped) {
    lines.push(`Skipped: ${f.skipped}.`);
  } else {
    const rec = sorted(f.recoverySeconds);
    lines.push('| measure | value | goal |', '|---|---|---|');
    lines.push(`| disk-full cycles survived | ${f.survived} of ${f.cycles} | all |`);
    lines.push(`| writes while full (compound, dataset, descriptor job), by answer | ${tally(f.whileFull)} | 507 or 503 with a report |`);
    lines.push(`| jobs submitted and writes in flight as the disk filled, by answer | ${tally(f.aroundFull)} | no 500 |`);
    lines.push(`| how those jobs ended, by the task's answer | ${tally(f.jobsEnded)} | all ended, no 500 |`);
    lines.push(`| reads while full: failed of made | ${f.readsFailedWhileFull} of ${f.readsWhileFull} | 0 failed |`);
    lines.push(`| acknowledged writes / lost (checked running and after each restart) | ${f.acknowledged} / ${f.lost} | 0 lost |`);
    lines.push(`| half-written datasets listed | ${f.halfWritten} | 0 |`);
    lines.push(`| jobs still unfinished 60 s after the disk had room | ${f.unfinishedJobs} | 0 |`);
    lines.push(`| first successful write after the filler was removed: median / max | ${rec.length ? `${quantile(rec, 0.5).toFixed(2)} s / ${rec.at(-1)!.toFixed(2)} s` : 'never'} | without a restart |`);
    lines.push(`| npm run check-store at the end | ${f.checkStore.replace(/^.*: /, '')} | consistent |`);
    if (f.problems.length) lines.push('', 'Problems:', ...f.problems.map((p) => `- ${p}`));
  }
  return lines.join('\n');
}
