// Phase 3, kills at random points: SIGKILL at a random moment during a 10k-row CSV upload
// or a random-forest build, restart on the same data directory, and check that every
// acknowledged write is there, that no half-written dataset or model is listed, that no
// task is left Running with nobody running it, and that no saved upload body is left over.
import type { Agent } from 'node:http';
import { kaziusCsv } from './data.ts';
import { pool, request, uris } from './http.ts';
import { freePort, sleep, startService, uploadFiles, type Service } from './service.ts';

export interface KillResult {
  kind: string;
  kills: number;
  acknowledged: number;
  lost: number;
  halfWritten: number;
  strandedRunning: number;
  uploadsLeft: number;
  completedAfterRestart: number;
  problems: string[];
}

const UPLOAD_ROWS = 10_000;
const TRAINING_ROWS = 150;

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

interface Ack { task: string; kind: 'upload' | 'model' }

/** What a restarted service must show: acknowledged tasks present, listed resources complete. */
async function verify(agent: Agent, service: Service, acked: Ack[], sizes: Set<number>, problems: string[]): Promise<{ lost: number; halfWritten: number }> {
  let lost = 0;
  for (const a of acked) {
    const res = await request(agent, a.task, { headers: { Accept: 'text/uri-list' } });
    if (res.status === 404) {
      lost++;
      problems.push(`acknowledged ${a.kind} task ${a.task} is gone`);
    }
  }
  let halfWritten = 0;
  const datasets = uris((await request(agent, `${service.url}/dataset`, { headers: { Accept: 'text/uri-list' } })).body);
  for (const d of datasets) {
    const res = await request(agent, d, { headers: { Accept: 'text/csv' } });
    const rows = res.body.split(/\r?\n/).filter(Boolean).length - 1;
    if (res.status !== 200 || !sizes.has(rows)) {
      halfWritten++;
      problems.push(`dataset ${d} answers ${res.status} with ${rows} rows`);
    }
  }
  const models = uris((await request(agent, `${service.url}/model`, { headers: { Accept: 'text/uri-list' } })).body);
  for (const m of models) {
    const res = await request(agent, m, { headers: { Accept: 'text/turtle' } });
    if (res.status !== 200 || !res.body.includes('Model')) {
      halfWritten++;
      problems.push(`model ${m} answers ${res.status}`);
    }
  }
  return { lost, halfWritten };
}

async function listTasks(agent: Agent, service: Service, status: string): Promise<string[]> {
  return uris((await request(agent, `${service.url}/task?query=${status}`, { headers: { Accept: 'text/uri-list' } })).body);
}

/**
 * Runs `kills` rounds of: start, submit, SIGKILL after a random delay up to `windowMs`.
 * Then one more start: wait up to `settleMs` for the recovered tasks to finish, cancel what
 * is left, restart once more (start-up recovery and clean-up), and check the end state.
 */
export async function runKills(kind: 'upload' | 'model', dataDir: string, options: { kills: number; windowMs: number; settleMs: number }): Promise<KillResult> {
  const agent = pool(4);
  const acked: Ack[] = [];
  const problems: string[] = [];
  const sizes = new Set([UPLOAD_ROWS, TRAINING_ROWS]);
  let lost = 0;
  let halfWritten = 0;
  // The same port at every start: task URIs carry it (BASE_URL).
  const port = await freePort();
  const start = () => startService(dataDir, {}, port);
  let service = await start();
  let training = '';
  let target = '';
  if (kind === 'model') {
    const res = await request(agent, `${service.url}/dataset`, { method: 'POST', headers: { 'Content-Type': 'text/csv', Accept: 'text/uri-list' }, body: kaziusCsv(TRAINING_ROWS).replace(/,\d+\n/g, '\n').replace('SMILES,Mutagenicity,Row', 'SMILES,Mutagenicity') });
    if (res.status !== 200) throw new Error(`training set: ${res.status} ${res.body.slice(0, 300)}`);
    training = uris(res.body)[0]!;
    target = uris((await request(agent, `${training}/features`, { headers: { Accept: 'text/uri-list' } })).body)[0]!;
  }
  const csv = kaziusCsv(UPLOAD_ROWS);
  for (let round = 0; round < options.kills; round++) {
    const killAt = Math.random() * options.windowMs;
    const killer = sleep(killAt).then(() => service.kill('SIGKILL'));
    try {
      const res = kind === 'upload'
        ? await request(agent, `${service.url}/dataset`, { method: 'POST', headers: { 'Content-Type': 'text/csv', Accept: 'text/uri-list' }, body: csv })
        : await request(agent, `${service.url}/algorithm/random-forest`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'text/uri-list' }, body: form({ dataset_uri: training, prediction_feature: target, trees: '30' }) });
      if (res.status === 202 || res.status === 201) acked.push({ task: uris(res.body)[0]!, kind });
      else if (res.status !== 200 && res.status !== 503) problems.push(`submission answered ${res.status}: ${res.body.slice(0, 200)}`);
    } catch { /* killed before answering: not acknowledged */ }
    await killer;
    agent.destroy();
    service = await start();
    const v = await verify(agent, service, acked, sizes, problems);
    lost += v.lost;
    halfWritten += v.halfWritten;
  }
  // Recovered tasks run again (or end interrupted); give them time, then cancel the rest.
  const until = Date.now() + options.settleMs;
  while (Date.now() < until && (await listTasks(agent, service, 'Running')).length + (await listTasks(agent, service, 'Queued')).length > 0) await sleep(1000);
  let completedAfterRestart = 0;
  for (const a of acked) {
    const res = await request(agent, a.task, { headers: { Accept: 'text/uri-list' } });
    if (res.status === 200) completedAfterRestart++;
  }
  // Cancel every task still unfinished, not only the acknowledged ones: a kill after the
  // service saved a submission but before its answer reached the client leaves a task the
  // client never heard of, which start-up recovery runs again like any other.
  const unfinished = [...await listTasks(agent, service, 'Running'), ...await listTasks(agent, service, 'Queued')];
  for (const t of unfinished) await request(agent, t, { method: 'DELETE', headers: { Accept: 'text/uri-list' } });
  await sleep(2000);
  await service.kill('SIGTERM');
  service = await start();
  const v = await verify(agent, service, acked, sizes, problems);
  lost += v.lost;
  halfWritten += v.halfWritten;
  const stranded = [...await listTasks(agent, service, 'Running'), ...await listTasks(agent, service, 'Queued')];
  for (const t of stranded) problems.push(`task ${t}${acked.some((a) => a.task === t) ? '' : ' (never acknowledged)'} is still unfinished after cancel and restart`);
  const left = uploadFiles(dataDir);
  for (const f of left) problems.push(`upload body ${f} left in DATA_DIR/uploads`);
  await service.kill('SIGTERM');
  agent.destroy();
  return { kind, kills: options.kills, acknowledged: acked.length, lost, halfWritten, strandedRunning: stranded.length, uploadsLeft: left.length, completedAfterRestart, problems };
}
