// The cost of token validation: requests/s of a cheap GET (the service
// description) with auth off, and with AUTH_MODE=local and a token on every request,
// measured in the same run against two instances of the real app.
import { tempDir, startApp, type TestApp } from '../test/helpers/app.ts';
import { UserFile } from '../src/auth/users.ts';
import { LocalIdentity } from '../src/auth/identity.ts';
import type { BenchModule, BenchRow } from './types.ts';

const DURATION_MS = 1500;
/** Configurations alternate for this many rounds and the best round counts: the machine is shared. */
const ROUNDS = 3;
const CONCURRENCY = 16;

async function requestsPerSecond(url: string, headers: Record<string, string>): Promise<number> {
  const until = Date.now() + DURATION_MS;
  let done = 0;
  const worker = async () => {
    while (Date.now() < until) {
      const res = await fetch(url, { headers: { Accept: 'text/uri-list', ...headers } });
      if (res.status !== 200) throw new Error(`GET ${url} answered ${res.status}`);
      await res.arrayBuffer();
      done++;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return done / (DURATION_MS / 1000);
}

async function login(app: TestApp): Promise<string> {
  const res = await fetch(app.url + '/auth/authenticate', {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: 'bench', password: 'bench-password' }),
  });
  return /token\.id=(.+)/.exec(await res.text())![1]!;
}

const fmt = (n: number): string => `${Math.round(n).toLocaleString('en')} req/s`;

/** Microseconds per LocalIdentity.validate: the whole per-request cost of a local token. */
async function validateMicros(dir: string, token: string): Promise<number> {
  const identity = new LocalIdentity(dir, 3600);
  const n = 50_000;
  const start = performance.now();
  for (let i = 0; i < n; i++) await identity.validate(token);
  return ((performance.now() - start) * 1000) / n;
}

const bench: BenchModule = {
  title: 'Authentication: token validation on a cheap GET',
  run: async (): Promise<BenchRow[]> => {
    const dir = tempDir();
    await new UserFile(dir).add('bench', 'bench-password');
    const off = await startApp({ authMode: 'off' });
    const on = await startApp({ authMode: 'local' }, dir);
    try {
      const token = await login(on);
      await requestsPerSecond(off.url + '/', {}); // warm-up
      let base = 0;
      let withToken = 0;
      let anonymous = 0;
      for (let round = 0; round < ROUNDS; round++) {
        base = Math.max(base, await requestsPerSecond(off.url + '/', {}));
        withToken = Math.max(withToken, await requestsPerSecond(on.url + '/', { subjectid: token }));
        anonymous = Math.max(anonymous, await requestsPerSecond(on.url + '/', {}));
      }
      const micros = await validateMicros(dir, token);
      return [
        { bench: 'token validation in process (digest, lookup, user file check)', figure: `${micros.toFixed(1)} µs per token` },
        { bench: 'GET / with auth on, valid subjectid header', figure: fmt(withToken), baseline: fmt(base) + ' (auth off)', ratio: (withToken / base).toFixed(2) },
        { bench: 'GET / with auth on, no token (public read)', figure: fmt(anonymous), baseline: fmt(base) + ' (auth off)', ratio: (anonymous / base).toFixed(2) },
      ];
    } finally {
      await on.close();
      await off.close();
    }
  },
};

export default bench;
