// Latency and outcome counts per kind of request.
export class Recorder {
  private readonly times = new Map<string, number[]>();
  private readonly counts = new Map<string, { ok: number; busy: number; bad: number; failed: number }>();
  /** Unexpected answers, a few of each kind, for the report. */
  readonly samples: string[] = [];

  /** ok: 2xx; busy: 503 or 429 with Retry-After (the service shedding load as SPEC §4.3 allows, or the client's job quota); bad: any other status; failed: no answer. */
  record(kind: string, ms: number, outcome: 'ok' | 'busy' | 'bad' | 'failed', note?: string): void {
    if (!this.times.has(kind)) {
      this.times.set(kind, []);
      this.counts.set(kind, { ok: 0, busy: 0, bad: 0, failed: 0 });
    }
    this.times.get(kind)!.push(ms);
    this.counts.get(kind)![outcome]++;
    if ((outcome === 'bad' || outcome === 'failed') && this.samples.length < 20) this.samples.push(`${kind}: ${note ?? outcome}`);
  }

  /** Latencies of one kind, in the order recorded. */
  timesOf(kind: string): readonly number[] {
    return this.times.get(kind) ?? [];
  }

  kinds(): string[] {
    return [...this.times.keys()].sort();
  }

  summary(kind: string): { n: number; ok: number; busy: number; bad: number; failed: number; p50: number; p99: number; max: number } {
    const t = [...(this.times.get(kind) ?? [])].sort((a, b) => a - b);
    return { n: t.length, ...this.counts.get(kind)!, p50: quantile(t, 0.5), p99: quantile(t, 0.99), max: t.at(-1) ?? NaN };
  }

  total(): { n: number; ok: number; busy: number; bad: number; failed: number } {
    const sum = { n: 0, ok: 0, busy: 0, bad: 0, failed: 0 };
    for (const k of this.kinds()) {
      const s = this.summary(k);
      for (const f of ['n', 'ok', 'busy', 'bad', 'failed'] as const) sum[f] += s[f];
    }
    return sum;
  }
}

/** The q-quantile of sorted values (nearest rank). */
export function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
}

/** Times a cheap GET every `everyMs` until stopped: the delay others see while something goes on. */
export function probe(url: string, everyMs = 250): { stop: () => Promise<number[]> } {
  const times: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const t0 = performance.now();
      try {
        const res = await fetch(url, { headers: { Accept: 'text/uri-list' }, signal: AbortSignal.timeout(30_000) });
        await res.arrayBuffer();
        times.push(res.ok ? performance.now() - t0 : Infinity);
      } catch {
        times.push(Infinity);
      }
      await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
  return { stop: async () => { running = false; await loop; return times; } };
}
