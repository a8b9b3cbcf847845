// Worker thread of the substructure matcher (issue #8 §3): exact matching runs here so a
// pathological SMARTS never blocks the event loop, and the main thread can terminate this
// worker when a search exceeds its time limit.
import { parentPort } from 'node:worker_threads';
import { initFingerprints } from '../chem/fingerprints.ts';
import { SubstructureMatcher, type QueryKind } from '../chem/smarts.ts';

export interface MatchJob {
  id: number;
  kind: QueryKind;
  text: string;
  /** The candidates' pickles end to end; `ends[i]` is where candidate i ends. */
  pickles: Uint8Array;
  ends: Uint32Array;
}

export interface MatchResult {
  id: number;
  /** Indexes (into the job's candidates) of the molecules that contain the query. */
  matched?: Uint32Array;
  error?: string;
}

let current: { key: string; matcher: SubstructureMatcher } | undefined;

function matcherFor(kind: QueryKind, text: string): SubstructureMatcher {
  const key = kind + '\n' + text;
  if (current?.key !== key) {
    current?.matcher.free();
    current = { key, matcher: new SubstructureMatcher(kind, text) };
  }
  return current.matcher;
}

function run(job: MatchJob): MatchResult {
  const matcher = matcherFor(job.kind, job.text);
  const matched: number[] = [];
  let start = 0;
  for (let i = 0; i < job.ends.length; i++) {
    if (matcher.matches(job.pickles.subarray(start, job.ends[i]))) matched.push(i);
    start = job.ends[i];
  }
  return { id: job.id, matched: Uint32Array.from(matched) };
}

const port = parentPort;
if (port) {
  await initFingerprints();
  port.on('message', (job: MatchJob) => {
    let result: MatchResult;
    try {
      result = run(job);
    } catch (e) {
      result = { id: job.id, error: (e as Error).message };
    }
    port.postMessage(result, result.matched ? [result.matched.buffer as ArrayBuffer] : []);
  });
  port.postMessage({ ready: true });
}
