// An open-loop client: GET `url` at a fixed rate on one keep-alive connection, each request's
// latency counted from when it was due, not from when it was sent. A client that waits for
// each answer before sending the next (wrk's closed loop) sends nothing while the service
// stalls, so a stall of a second costs it one slow request; here it costs every request due
// in that second, as it does the clients of a real service.
import http from 'node:http';

export interface PacedResult {
  /** Latency percentiles and the worst, in milliseconds from each request's due time. */
  p50: number;
  p99: number;
  max: number;
  requests: number;
  /** Answers with a status other than `expect`, and socket errors. */
  errors: number;
}

const percentile = (sorted: readonly number[], p: number): number => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;

function get(agent: http.Agent, url: URL, accept: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent, headers: { accept } }, (res) => {
      res.resume();
      res.once('end', () => resolve(res.statusCode ?? 0));
    });
    req.once('error', reject);
  });
}

/**
 * Sends GET `url` `rate` times a second until `until` resolves (or for `seconds`), one
 * connection, answers read whole. A request not yet sent when it is due (the one before is
 * still waiting) goes as soon as the connection is free; its latency still counts from its
 * due time.
 */
export async function paced(url: string, options: { rate: number; seconds?: number; until?: Promise<unknown>; accept?: string; expect?: number }): Promise<PacedResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const target = new URL(url);
  const interval = 1000 / options.rate;
  let stop = false;
  void options.until?.finally(() => { stop = true; });
  const latencies: number[] = [];
  let errors = 0;
  const start = performance.now();
  const end = options.seconds === undefined ? Infinity : start + options.seconds * 1000;
  try {
    for (let i = 0; !stop; i++) {
      const due = start + i * interval;
      if (due >= end) break;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      try {
        const status = await get(agent, target, options.accept ?? 'text/uri-list');
        if (status !== (options.expect ?? 200)) errors++;
      } catch {
        errors++;
      }
      latencies.push(performance.now() - due);
    }
  } finally {
    agent.destroy();
  }
  latencies.sort((a, b) => a - b);
  return { p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99), max: latencies.at(-1) ?? NaN, requests: latencies.length, errors };
}
