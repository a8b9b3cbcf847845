// Property-based fuzzing over HTTP: arbitraries that mutate real, valid inputs, a store
// fingerprint, and one property that every answer must keep (never a 5xx, never a hang,
// never a changed store when the request was refused).
import fc from 'fast-check';
import { expect } from 'chai';

/** Cases per property: hundreds in the normal suite, thousands with FUZZ_RUNS=5000 (the soak). */
export function fuzzRuns(normal: number): number {
  const raw = Number(process.env.FUZZ_RUNS);
  return Number.isInteger(raw) && raw > 0 ? raw : normal;
}

/** The seed of the cases the normal suite runs: the same ones every run, so CI is repeatable. */
const SUITE_SEED = 20261125;

/**
 * FUZZ_SEED replays a failure (fast-check prints the seed of any counterexample); a soak
 * (FUZZ_RUNS set, `npm run fuzz`) draws new cases each time; the normal suite runs SUITE_SEED.
 */
export function fuzzSeed(): number | undefined {
  const raw = Number(process.env.FUZZ_SEED);
  if (process.env.FUZZ_SEED && Number.isInteger(raw)) return raw;
  return process.env.FUZZ_RUNS ? undefined : SUITE_SEED;
}

type Edit = { kind: 'delete' | 'insert' | 'duplicate' | 'replace' | 'truncate'; at: number; len: number; text: string };

const NASTY = fc.constantFrom('\u0000', '\uFFFD', '\u202E', '"', "'", '<', '>', '&', ']]>', '\\', '\r\n', '\n\n\n', '$$$$', 'M  END', '@', '[', ']', '(', ')', '{', '}', '%', '=', '#', '9999999999', '-1', 'NaN', '1e308', 'é', '😀');
const edit: fc.Arbitrary<Edit> = fc.record({
  kind: fc.constantFrom('delete', 'insert', 'duplicate', 'replace', 'truncate'),
  at: fc.nat(),
  len: fc.integer({ min: 1, max: 64 }),
  text: fc.oneof(NASTY, fc.string({ maxLength: 16 }), fc.string({ unit: 'binary', maxLength: 8 })),
});

function apply(text: string, e: Edit): string {
  const at = text.length === 0 ? 0 : e.at % (text.length + 1);
  switch (e.kind) {
    case 'delete': return text.slice(0, at) + text.slice(at + e.len);
    case 'insert': return text.slice(0, at) + e.text + text.slice(at);
    case 'duplicate': return text.slice(0, at + e.len) + text.slice(at, at + e.len) + text.slice(at + e.len);
    case 'replace': return text.slice(0, at) + e.text + text.slice(at + e.text.length);
    case 'truncate': return text.slice(0, at);
  }
}

/** A valid seed as is, a seed with 1-6 edits, or a random string. */
export function mutated(seeds: string[]): fc.Arbitrary<string> {
  const seed = fc.constantFrom(...seeds);
  return fc.oneof(
    { arbitrary: seed, weight: 1 },
    { arbitrary: fc.tuple(seed, fc.array(edit, { minLength: 1, maxLength: 6 })).map(([s, edits]) => edits.reduce(apply, s)), weight: 6 },
    { arbitrary: fc.string({ maxLength: 200 }), weight: 1 },
  );
}

/** Everything the store holds, counted over HTTP through the SPARQL endpoint. */
export async function fingerprint(url: string): Promise<string> {
  const query = 'SELECT (COUNT(*) AS ?n) WHERE { { ?s ?p ?o } UNION { GRAPH ?g { ?s ?p ?o } } }';
  const res = await fetch(`${url}/sparql?query=${encodeURIComponent(query)}`, { headers: { Accept: 'application/sparql-results+json' } });
  expect(res.status, 'fingerprint query').to.equal(200);
  const json = (await res.json()) as { results: { bindings: Array<{ n: { value: string } }> } };
  return json.results.bindings[0]!.n.value;
}

export interface Sent {
  status: number;
  type: string | null;
  body: string;
}

/** The time limit of one fuzzed request: a hang fails the property. */
export const REQUEST_LIMIT_MS = 15_000;

/** Sends one request and checks the answer: no 5xx (503 with Retry-After, 502/504 from a remote aside). */
export async function send(url: string, path: string, init: RequestInit, what: string): Promise<Sent> {
  let res: Response;
  try {
    res = await fetch(url + path, { ...init, signal: AbortSignal.timeout(REQUEST_LIMIT_MS) });
  } catch (e) {
    throw new Error(`${what}: no answer within ${REQUEST_LIMIT_MS} ms (${(e as Error).message})`, { cause: e });
  }
  const body = await res.text();
  if (process.env.FUZZ_STATS) console.log('FUZZSTAT', what.split(' ')[0], res.status, body.slice(0, 80).replace(/\n/g, ' '));
  const overloaded = res.status === 503 && res.headers.get('retry-after') !== null;
  // A mutated URI may name another service: its failure is a 502/504 (SPEC §7.2), not ours.
  const gateway = res.status === 502 || res.status === 504;
  if (res.status >= 500 && !overloaded && !gateway) throw new Error(`${what}: ${res.status} ${body.slice(0, 400)}`);
  return { status: res.status, type: res.headers.get('content-type'), body };
}

/** Sends, and when refused (4xx) checks the store is as it was. */
export async function sendUnchangedWhenRefused(url: string, path: string, init: RequestInit, what: string): Promise<Sent> {
  const before = await fingerprint(url);
  const sent = await send(url, path, init, what);
  if (sent.status >= 400) expect(await fingerprint(url), `${what}: refused with ${sent.status} but the store changed`).to.equal(before);
  return sent;
}

export { fc };
