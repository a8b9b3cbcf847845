// Phase 3, continued: SIGKILL while the embedded store writes a snapshot or compacts its
// journal (src/store/embedded/compactor.ts). With SNAPSHOT_EVERY small, a stream of small dataset
// uploads closes a journal segment every few seconds; each closed segment makes a worker
// write snapshot.tmp, rename it to snapshot.N.nq, then delete the segments and the older
// snapshot it replaces. The watcher polls the store directory and kills the service
//  - "snapshot": a random 0 to 20 ms after snapshot.tmp appears (while it is written);
//  - "compaction": as soon as a new snapshot.N.nq is there while files it replaces are not
//    yet deleted.
// Whether the kill landed inside that window is read from the files it left. Then: restart
// (the journal replays from the newest whole snapshot), every acknowledged upload reads back
// complete, every listed dataset is whole; after the last round `npm run check-store` passes
// once the service is stopped.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { kaziusCsv } from './data.ts';
import { pool, request, uris } from './http.ts';
import { checkStore, freePort, sleep, startService, type Service } from './service.ts';
import type { KillResult } from './kill.ts';
import { obsolete, scan, snapshotTemp } from '../../src/store/embedded/layout.ts';

const ROWS = 5;
/** Journal records per segment: a snapshot every few seconds of uploads. */
const SNAPSHOT_EVERY = '10';
const WRITERS = 4;

export interface StoreKillResult extends KillResult {
  /** Kills that landed inside the window they aimed at (snapshot.tmp present, or replaced files not yet deleted). */
  inWindow: number;
  checkStoreFailures: number;
}

const newestSnapshot = (dir: string): number => scan(dir).snapshots.at(-1) ?? 0;

export async function runStoreKills(kind: 'snapshot' | 'compaction', dataDir: string, options: { kills: number; windowMs: number }): Promise<StoreKillResult> {
  const agent = pool(WRITERS);
  const storeDir = path.join(dataDir, 'store');
  const acked: string[] = [];
  const problems: string[] = [];
  const problem = (p: string) => { if (problems.length < 50) problems.push(p); };
  let lost = 0;
  let halfWritten = 0;
  let inWindow = 0;
  let checkStoreFailures = 0;
  let next = 0;
  const port = await freePort();
  const start = () => startService(dataDir, { SNAPSHOT_EVERY }, port);

  const verify = async (service: Service, when: string): Promise<void> => {
    for (const uri of acked) {
      const res = await request(agent, uri, { headers: { Accept: 'text/csv' } });
      if (res.status !== 200 || res.body.split(/\r?\n/).filter(Boolean).length - 1 !== ROWS) {
        lost++;
        problem(`${when}: acknowledged dataset ${uri} answers ${res.status}: ${res.body.slice(0, 120)}`);
      }
    }
    for (const d of uris((await request(agent, `${service.url}/dataset`, { headers: { Accept: 'text/uri-list' } })).body)) {
      const res = await request(agent, d, { headers: { Accept: 'text/csv' } });
      const n = res.body.split(/\r?\n/).filter(Boolean).length - 1;
      if (res.status !== 200 || n !== ROWS) {
        halfWritten++;
        problem(`${when}: dataset ${d} answers ${res.status} with ${n} rows`);
      }
    }
  };

  let service = await start();
  for (let round = 1; round <= options.kills; round++) {
    const live = service;
    let stop = false;
    const writers = Array.from({ length: WRITERS }, async () => {
      while (!stop) {
        try {
          const res = await request(agent, `${live.url}/dataset`, { method: 'POST', headers: { 'Content-Type': 'text/csv', Accept: 'text/uri-list' }, body: kaziusCsv(ROWS, (next++ * ROWS) % 4000) });
          if (res.status === 200 || res.status === 201) acked.push(uris(res.body)[0]!);
          else if (res.status !== 503) problem(`round ${round}: upload answered ${res.status}: ${res.body.slice(0, 200)}`);
        } catch { /* killed: not acknowledged */ }
      }
    });
    // Wait for the moment aimed at, then kill; a round that never sees it kills at the end of the window.
    const before = newestSnapshot(storeDir);
    const until = Date.now() + options.windowMs;
    let seen = false;
    while (!seen && Date.now() < until) {
      if (kind === 'snapshot') seen = existsSync(snapshotTemp(storeDir));
      else seen = newestSnapshot(storeDir) > before;
      if (!seen) await sleep(1);
    }
    if (seen && kind === 'snapshot') await sleep(Math.random() * 20);
    await live.kill('SIGKILL');
    stop = true;
    if (seen) {
      const landed = kind === 'snapshot' ? existsSync(snapshotTemp(storeDir)) : obsolete(storeDir, newestSnapshot(storeDir)).length > 0;
      if (landed) inWindow++;
    }
    await Promise.all(writers);
    agent.destroy();
    // Restart: the newest whole snapshot plus the journal after it.
    service = await start();
    await verify(service, `round ${round}, after restart`);
  }
  await service.kill('SIGTERM');
  const check = checkStore(dataDir);
  if (!check.ok) {
    checkStoreFailures++;
    problem(`check-store: ${check.output}`);
  }
  agent.destroy();
  return { kind, kills: options.kills, acknowledged: acked.length, lost, halfWritten, strandedRunning: 0, uploadsLeft: 0, completedAfterRestart: 0, problems, inWindow, checkStoreFailures };
}
