// Phase 4, a full disk: DATA_DIR on a small tmpfs that a filler file fills to the last byte
// while compounds, small datasets and descriptor jobs are being written. Checked each cycle:
// writes answer 507 InsufficientStorage (or 503) with an error report naming it, never 500;
// reads go on answering 200; everything acknowledged before or while full reads back; no
// dataset is listed half-written; once the filler is removed, writes work again without a
// restart and every job submitted meanwhile ends; after a restart (the journal replayed),
// everything acknowledged is still there. Mounting needs root (CAP_SYS_ADMIN): without it
// the phase is skipped and says why.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { fill, mountTmpfs, unmountTmpfs } from '../engines/tmpfs.ts';
import { kazius, kaziusCsv } from './data.ts';
import { pool, request, uris, type Answer } from './http.ts';
import { checkStore, freePort, sleep, startService, type Service } from './service.ts';

export interface DiskFullResult {
  cycles: number;
  /** Why the phase did not run (no tmpfs could be mounted), else undefined. */
  skipped?: string;
  survived: number;
  /** Writes attempted while full, by answer: "507", "503", "2xx", anything else. */
  whileFull: Record<string, number>;
  /** Answers to the jobs submitted just before the disk filled and the writes in flight as it did, by status. */
  aroundFull: Record<string, number>;
  readsWhileFull: number;
  readsFailedWhileFull: number;
  acknowledged: number;
  lost: number;
  halfWritten: number;
  /** How the jobs submitted around the full disk ended, by the task's answer (200 Completed, else the error's status). */
  jobsEnded: Record<string, number>;
  /** Jobs submitted around the full disk still Running or Queued after recovery. */
  unfinishedJobs: number;
  /** Seconds from removing the filler to the first write that succeeded again. */
  recoverySeconds: number[];
  checkStore: string;
  problems: string[];
}

const TMPFS_SIZE = '64m';
const ROWS = 5;

interface Acked { uri: string; kind: 'compound' | 'dataset'; expect: string }

const smilesOf = (body: string) => body.trim().split(/\s+/)[0]!; // split answers one part or more

type Write = 'compound' | 'dataset' | 'descriptors';

export async function runDiskFull(options: { cycles: number; writesWhileFull: number }, log: (line: string) => void = () => undefined): Promise<DiskFullResult> {
  const result: DiskFullResult = {
    cycles: options.cycles, survived: 0, whileFull: {}, aroundFull: {}, readsWhileFull: 0, readsFailedWhileFull: 0,
    acknowledged: 0, lost: 0, halfWritten: 0, jobsEnded: {}, unfinishedJobs: 0, recoverySeconds: [], checkStore: 'not run', problems: [],
  };
  let mount: string;
  try {
    mount = mountTmpfs(TMPFS_SIZE, 'opentox-soak-full-');
  } catch (e) {
    return { ...result, skipped: (e as Error).message };
  }
  const dataDir = path.join(mount, 'data');
  const filler = path.join(mount, 'filler');
  const agent = pool(16);
  const acked: Acked[] = [];
  const jobs: string[] = [];
  const rows = kazius();
  let next = 0;
  const problem = (p: string) => { if (result.problems.length < 50) result.problems.push(p); };
  // The same port at every start: URIs carry it (BASE_URL).
  const port = await freePort();
  let service: Service | undefined;

  const write = async (kind: Write, seedDataset: string): Promise<Answer> => {
    const n = next++;
    if (kind === 'compound') {
      return request(agent, `${service!.url}/compound`, { method: 'POST', headers: { 'Content-Type': 'chemical/x-daylight-smiles', Accept: 'text/uri-list' }, body: rows[n % rows.length]!.smiles, timeoutMs: 60_000 });
    }
    if (kind === 'dataset') {
      return request(agent, `${service!.url}/dataset`, { method: 'POST', headers: { 'Content-Type': 'text/csv', Accept: 'text/uri-list' }, body: kaziusCsv(ROWS, n * ROWS), timeoutMs: 60_000 });
    }
    return request(agent, `${service!.url}/algorithm/physchem`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'text/uri-list' }, body: `dataset_uri=${encodeURIComponent(seedDataset)}`, timeoutMs: 60_000 });
  };
  /** Records a 2xx write as acknowledged; answers whether it was one. */
  const record = (kind: Write, res: Answer, n: number): boolean => {
    if (res.status < 200 || res.status >= 300) return false;
    const uri = uris(res.body)[0]!; // a 2xx write answers its URI
    if (kind === 'compound') acked.push({ uri, kind, expect: rows[n % rows.length]!.smiles });
    else if (kind === 'dataset') acked.push({ uri, kind, expect: String(ROWS) });
    else if (res.status === 202) jobs.push(uri);
    return true;
  };
  const writeAndRecord = async (kind: Write, seedDataset: string): Promise<Answer> => {
    const n = next;
    const res = await write(kind, seedDataset);
    record(kind, res, n);
    return res;
  };

  /** Every acknowledged write reads back; every listed dataset is whole. */
  const verify = async (when: string): Promise<void> => {
    for (const a of acked) {
      const res = await request(agent, a.uri, { headers: { Accept: a.kind === 'compound' ? 'chemical/x-daylight-smiles' : 'text/csv' } });
      const ok = res.status === 200 && (a.kind === 'compound' ? smilesOf(res.body).length > 0 : res.body.split(/\r?\n/).filter(Boolean).length - 1 === ROWS);
      if (!ok) {
        result.lost++;
        problem(`${when}: acknowledged ${a.kind} ${a.uri} answers ${res.status}: ${res.body.slice(0, 120)}`);
      }
    }
    const list = await request(agent, `${service!.url}/dataset`, { headers: { Accept: 'text/uri-list' } });
    if (list.status !== 200) problem(`${when}: GET /dataset answered ${list.status}`);
    for (const d of uris(list.body)) {
      const res = await request(agent, d, { headers: { Accept: 'text/csv' } });
      const n = res.body.split(/\r?\n/).filter(Boolean).length - 1;
      if (res.status !== 200 || n !== ROWS) {
        result.halfWritten++;
        problem(`${when}: dataset ${d} answers ${res.status} with ${n} rows`);
      }
    }
  };

  /** Waits for every job submitted so far to end; counts and cancels those that do not. */
  const settleJobs = async (when: string, ms: number): Promise<void> => {
    const until = Date.now() + ms;
    let open = [...jobs];
    while (open.length > 0 && Date.now() < until) {
      const still: string[] = [];
      for (const t of open) {
        const res = await request(agent, t, { headers: { Accept: 'text/uri-list' } });
        if (res.status === 202) {
          still.push(t);
          continue;
        }
        result.jobsEnded[res.status] = (result.jobsEnded[res.status] ?? 0) + 1;
        if (res.status === 404) problem(`${when}: acknowledged job ${t} is gone`);
        else if (res.status >= 500 && res.status !== 503 && res.status !== 507) problem(`${when}: job ${t} ended ${res.status}: ${res.body.slice(0, 200)}`);
      }
      open = still;
      if (open.length > 0) await sleep(500);
    }
    for (const t of open) {
      result.unfinishedJobs++;
      problem(`${when}: job ${t} still unfinished ${Math.round(ms / 1000)} s after the disk had room`);
      await request(agent, t, { method: 'DELETE', headers: { Accept: 'text/uri-list' } });
    }
    jobs.length = 0;
  };

  try {
    service = await startService(dataDir, {}, port);
    const seed = await write('dataset', '');
    if (seed.status !== 200) throw new Error(`seed dataset: ${seed.status} ${seed.body.slice(0, 200)}`);
    const seedDataset = uris(seed.body)[0]!; // a 200 upload answers its URI
    acked.push({ uri: seedDataset, kind: 'dataset', expect: String(ROWS) });
    const kinds: Write[] = ['compound', 'compound', 'dataset', 'descriptors'];
    for (let cycle = 1; cycle <= options.cycles; cycle++) {
      const before = result.problems.length;
      // Jobs acknowledged just before the disk fills run while it is full ...
      for (let i = 0; i < 4; i++) {
        const res = await writeAndRecord('descriptors', seedDataset);
        result.aroundFull[res.status] = (result.aroundFull[res.status] ?? 0) + 1;
      }
      // ... and writes are still in flight when it does.
      const inFlight = Array.from({ length: 8 }, (_, i) => writeAndRecord(kinds[i % kinds.length]!, seedDataset).then((res) => { result.aroundFull[res.status] = (result.aroundFull[res.status] ?? 0) + 1; }).catch((e: Error) => problem(`cycle ${cycle}: write before full got no answer: ${e.message}`)));
      await sleep(50);
      fill(filler);
      await Promise.all(inFlight);
      // While full: writes of each kind, and reads of what was acknowledged.
      await Promise.all(Array.from({ length: options.writesWhileFull }, async (_, i) => {
        const kind = kinds[i % kinds.length]!;
        const n = next;
        let res: Answer;
        try {
          res = await write(kind, seedDataset);
        } catch (e) {
          result.whileFull.other = (result.whileFull.other ?? 0) + 1;
          problem(`cycle ${cycle}: ${kind} while full got no answer: ${(e as Error).message}`);
          return;
        }
        const key = record(kind, res, n) ? '2xx' : res.status === 507 || res.status === 503 ? String(res.status) : 'other';
        result.whileFull[key] = (result.whileFull[key] ?? 0) + 1;
        if (key === 'other') problem(`cycle ${cycle}: ${kind} while full answered ${res.status}: ${res.body.slice(0, 200)}`);
        else if (key !== '2xx' && !(key === '507' ? /InsufficientStorage/ : /ServiceUnavailable|InsufficientStorage/).test(res.body)) {
          problem(`cycle ${cycle}: ${kind} while full answered ${res.status} without a report naming the condition: ${res.body.slice(0, 200)}`);
        }
      }));
      for (const a of acked.slice(-10)) {
        result.readsWhileFull++;
        const res = await request(agent, a.uri, { headers: { Accept: a.kind === 'compound' ? 'chemical/x-daylight-smiles' : 'text/csv' } }).catch((e: Error) => ({ status: 0, body: e.message }) as Answer);
        if (res.status !== 200) {
          result.readsFailedWhileFull++;
          problem(`cycle ${cycle}: read of ${a.uri} while full answered ${res.status}: ${res.body.slice(0, 120)}`);
        }
      }
      // Room again: writes must succeed without a restart.
      rmSync(filler);
      const freed = Date.now();
      let recovered = false;
      while (!recovered && Date.now() - freed < 30_000) {
        const n = next;
        const res = await write('compound', seedDataset).catch(() => undefined);
        recovered = res !== undefined && record('compound', res, n);
        if (!recovered) await sleep(250);
      }
      if (!recovered) problem(`cycle ${cycle}: writes still refused 30 s after the filler was removed`);
      else result.recoverySeconds.push((Date.now() - freed) / 1000);
      for (const kind of ['dataset', 'descriptors'] as const) {
        const n = next;
        const res = await write(kind, seedDataset);
        if (!record(kind, res, n)) problem(`cycle ${cycle}: ${kind} after the disk had room answered ${res.status}: ${res.body.slice(0, 200)}`);
      }
      await settleJobs(`cycle ${cycle}`, 60_000);
      await verify(`cycle ${cycle}, still running`);
      // Restart: the journal is replayed; everything acknowledged must be there.
      await service.kill('SIGTERM');
      service = await startService(dataDir, {}, port);
      await verify(`cycle ${cycle}, after restart`);
      if (result.problems.length === before) result.survived++;
      log(`disk full: cycle ${cycle} of ${options.cycles} ${result.problems.length === before ? 'survived' : 'had problems'}`);
    }
    await service.kill('SIGTERM');
    service = undefined;
    const check = checkStore(dataDir);
    result.checkStore = check.output.split('\n')[0]!;
    if (!check.ok) problem(`check-store: ${check.output}`);
  } finally {
    await service?.kill('SIGKILL');
    agent.destroy();
    rmSync(filler, { force: true });
    unmountTmpfs(mount);
  }
  result.acknowledged = acked.length;
  return result;
}
