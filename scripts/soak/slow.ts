// Phase 2, slow and broken clients: connections that send their headers or their body one
// byte a second, and clients that hang up in the middle of an upload or a download. The
// service must go on answering others (a probe's latency), end the slow requests within
// its time limits, and give back what they held (open files, saved upload bodies). Other
// clients submit a descriptor job and vanish without reading the answer: their jobs must
// end by themselves, never more at once than the per-client quota (JOB_QUOTA).
import net from 'node:net';
import os from 'node:os';
import { kaziusCsv } from './data.ts';
import { pool, request, uris } from './http.ts';
import { openFds, sleep, uploadFiles, type Service } from './service.ts';
import { probe } from './stats.ts';

export interface SlowResult {
  slowHeaders: number;
  slowBodies: number;
  /** Slow connections the service ended (408 or close) before the phase ended. */
  endedByServer: number;
  answered408: number;
  brokenUploads: number;
  brokenDownloads: number;
  fdsBefore: number;
  fdsAfter: number;
  uploadsLeft: number;
  probeMs: number[];
  seconds: number;
  /** Descriptor jobs submitted by clients that hung up without reading the answer. */
  abandoned: number;
  jobQuota: number;
  /** Tasks those submissions created (the rest were refused: quota or queue). */
  abandonedTasks: number;
  /** Most tasks Queued or Running at once, sampled every 250 ms. */
  maxLive: number;
  /** Tasks still Queued or Running when the wait for them ran out. */
  unfinished: number;
  /** Seconds from the last abandoned submission until no task was Queued or Running. */
  drainSeconds: number;
}

/** Submits a job and hangs up as soon as the request is written, without reading the answer. */
function abandonedJob(port: number, body: string): Promise<void> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(`POST /algorithm/physchem HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/x-www-form-urlencoded\r\nAccept: text/uri-list\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`, () => socket.destroy());
    });
    socket.on('error', () => undefined);
    socket.on('close', () => resolve());
  });
}

interface Drip { ended: Promise<{ byServer: boolean; answer: string }>; destroy: () => void }

/** A connection that writes `head`, then one byte of `drip` a second. */
function dripper(port: number, head: string, drip: string): Drip {
  const socket = net.connect(port, '127.0.0.1');
  let answer = '';
  let i = 0;
  let mine = false;
  const timer = setInterval(() => { if (!socket.destroyed) socket.write(drip[i++ % drip.length]!); }, 1000);
  socket.on('data', (d: Buffer) => { answer += d.toString('latin1'); });
  socket.on('error', () => undefined);
  socket.write(head);
  const ended = new Promise<{ byServer: boolean; answer: string }>((resolve) => socket.on('close', () => { clearInterval(timer); resolve({ byServer: !mine, answer }); }));
  return { ended, destroy: () => { mine = true; socket.destroy(); } };
}

/** Sends part of a request body, then hangs up. */
function brokenUpload(port: number, body: string): Promise<void> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(`POST /dataset HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: text/csv\r\nAccept: text/uri-list\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`);
      socket.write(body.slice(0, Math.floor(body.length * (0.2 + 0.6 * Math.random()))), () => setTimeout(() => socket.destroy(), 100));
    });
    socket.on('error', () => undefined);
    socket.on('close', () => resolve());
  });
}

/** Starts a download and hangs up after the first chunk. */
function brokenDownload(port: number, path: string, accept: string): Promise<void> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: ${accept}\r\n\r\n`));
    socket.once('data', () => socket.destroy());
    socket.on('error', () => undefined);
    socket.on('close', () => resolve());
    setTimeout(() => socket.destroy(), 30_000);
  });
}

export async function runSlow(service: Service, options: { slow: number; broken: number; seconds: number; abandoned: number; jobQuota: number }): Promise<SlowResult> {
  const port = Number(new URL(service.url).port);
  const agent = pool(4);
  const small = await request(agent, `${service.url}/dataset`, { method: 'POST', headers: { 'Content-Type': 'text/csv', Accept: 'text/uri-list' }, body: kaziusCsv(20, 900) });
  if (small.status !== 200) throw new Error(`seeding the slow phase: ${small.status} ${small.body.slice(0, 300)}`);
  const jobBody = `dataset_uri=${encodeURIComponent(uris(small.body)[0]!)}`;
  const tasks = async (query = '') => uris((await request(agent, `${service.url}/task${query}`, { headers: { Accept: 'text/uri-list' } })).body);
  const live = async () => (await tasks('?query=Running')).length + (await tasks('?query=Queued')).length;
  const tasksBefore = (await tasks()).length;
  // A dataset large enough that its RDF does not fit one chunk, stored inline (< 64 KiB).
  const res = await request(agent, `${service.url}/dataset`, { method: 'POST', headers: { 'Content-Type': 'text/csv', Accept: 'text/uri-list' }, body: kaziusCsv(800) });
  if (res.status !== 200) throw new Error(`seeding the slow phase: ${res.status} ${res.body.slice(0, 300)}`);
  const dataset = new URL(uris(res.body)[0]!).pathname;
  // Jobs run to their end first, one a job thread at once: the job threads (and what each
  // holds open) start on demand, and a thread that starts during the phase is not a
  // descriptor the clients leaked.
  const jobThreads = Math.min(options.jobQuota, os.availableParallelism());
  await Promise.all(Array.from({ length: jobThreads }, async () => {
    const warm = await request(agent, `${service.url}/algorithm/physchem`, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'text/uri-list' }, body: jobBody });
    const warmTask = uris(warm.body)[0];
    for (const until = Date.now() + 60_000; warmTask && Date.now() < until; await sleep(200)) {
      const t = await request(agent, warmTask, { headers: { Accept: 'text/uri-list' } });
      if (t.status !== 202) break;
    }
  }));
  await sleep(1000);
  const fdsBefore = openFds(service.pid);
  const latency = probe(`${service.url}/algorithm`);

  const half = Math.floor(options.slow / 2);
  const drips: Drip[] = [];
  for (let i = 0; i < options.slow; i++) {
    drips.push(i < half
      ? dripper(port, `GET /algorithm HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n`, `X-Slow: ${'a'.repeat(1000)}`)
      : dripper(port, `POST /compound HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: chemical/x-daylight-smiles\r\nContent-Length: 1000\r\n\r\n`, 'C'));
    if (i % 50 === 49) await sleep(100);
  }
  const big = kaziusCsv(3000);
  const broken: Promise<void>[] = [];
  for (let i = 0; i < options.abandoned; i++) broken.push(abandonedJob(port, jobBody));
  let maxLive = 0;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      maxLive = Math.max(maxLive, await live().catch(() => 0));
      await sleep(250);
    }
  })();
  const until = Date.now() + options.seconds * 1000;
  let brokenUploads = 0;
  let brokenDownloads = 0;
  for (let i = 0; Date.now() < until && i < options.broken * 2; i++) {
    if (i % 2 === 0) {
      brokenUploads++;
      broken.push(brokenUpload(port, big));
    } else {
      brokenDownloads++;
      broken.push(brokenDownload(port, dataset, i % 4 === 1 ? 'application/rdf+xml' : 'text/csv'));
    }
    await sleep((options.seconds * 1000) / (options.broken * 2 + 1));
  }
  await Promise.all(broken);
  await sleep(Math.max(0, until - Date.now()));
  const probeMs = await latency.stop();

  let endedByServer = 0;
  let answered408 = 0;
  for (const d of drips) {
    const settled = await Promise.race([d.ended, sleep(0).then(() => undefined)]);
    if (settled?.byServer) {
      endedByServer++;
      if (/^HTTP\/1\.1 408 /.test(settled.answer)) answered408++;
    }
    d.destroy();
  }
  await Promise.all(drips.map((d) => d.ended));
  // The abandoned jobs end by themselves (bounded wait), then nothing they held may remain.
  const drainStart = Date.now();
  let unfinished = await live();
  while (unfinished > 0 && Date.now() - drainStart < 120_000) {
    await sleep(500);
    unfinished = await live();
  }
  const drainSeconds = (Date.now() - drainStart) / 1000;
  sampling = false;
  await sampler;
  const abandonedTasks = (await tasks()).length - tasksBefore;
  agent.destroy();
  // Let the server notice the closed sockets and finish what the broken clients started.
  await sleep(3000);
  return {
    slowHeaders: half, slowBodies: options.slow - half, endedByServer, answered408, brokenUploads, brokenDownloads,
    fdsBefore, fdsAfter: openFds(service.pid), uploadsLeft: uploadFiles(service.dataDir).length, probeMs, seconds: options.seconds,
    abandoned: options.abandoned, jobQuota: options.jobQuota, abandonedTasks, maxLive, unfinished, drainSeconds,
  };
}
