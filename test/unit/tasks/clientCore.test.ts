// While clients keep the event loop busy, job threads keep off one core: read back from the
// kernel (Cpus_allowed_list in /proc/<pid>/task/<tid>/status, proc(5)), with the job pool's
// real threads and a real HTTP server under load.
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism } from 'node:os';
import { expect } from 'chai';
import { WorkerPool } from '../../../src/tasks/workerPool.ts';
import { ClientCore, cpuList, cpusOf, jobThreadIds } from '../../../src/tasks/clientCore.ts';
import { giveTurn, whoseTurn } from '../../../src/tasks/jobTurns.ts';
import { fitForestThreads } from '../../../src/algorithms/ml/forestThreads.ts';
import { fitForest } from '../../../src/algorithms/ml/forest.ts';
import { seededRng } from '../../../src/algorithms/ml/rng.ts';

/** Job functions run in the pool's threads: `tid` answers the id of the thread a call ran in. */
const THREAD_JOBS = new URL('../../fixtures/threadJobs.ts', import.meta.url);

/** Resolves once `check` holds, or fails after `ms`. */
async function eventually(what: string, check: () => boolean, ms = 5000): Promise<void> {
  for (const end = Date.now() + ms; !check();) {
    if (Date.now() > end) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** This process's child processes running `sh` (proc(5): comm is field 2, the parent's pid field 4). */
function shellChildren(): number[] {
  const pids: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, 'utf8');
    } catch {
      continue; // ended meanwhile
    }
    const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    if (comm === 'sh' && ppid === process.pid) pids.push(Number(name));
  }
  return pids.sort((a, b) => a - b);
}

describe('a core for the clients', function () {
  this.timeout(60_000);

  it('reads CPU lists as proc(5) writes them', () => {
    expect(cpuList('0-3,8')).to.deep.equal([0, 1, 2, 3, 8]);
    expect(cpuList('1\n')).to.deep.equal([1]);
    expect(cpuList('0,2-3')).to.deep.equal([0, 2, 3]);
  });

  describe('on this machine', () => {
    let pool: WorkerPool;
    let tids: number[];
    let all: number[];
    before(async function () {
      if (process.platform !== 'linux' || availableParallelism() < 2) this.skip();
      all = cpusOf(process.pid);
      if (all.length < 2) this.skip();
      pool = new WorkerPool(2);
      tids = [...new Set(await Promise.all([1, 2, 3, 4].map(() => pool.run<number>(THREAD_JOBS, 'tid', null))))];
    });
    after(async () => {
      await pool?.close();
    });

    it('finds the job pool\'s threads (SCHED_IDLE), not the main thread', () => {
      const found = jobThreadIds();
      for (const tid of tids) expect(found, `thread ${tid}`).to.include(tid);
      expect(found).not.to.include(process.pid);
    });

    it('confines every job thread to all cores but one, leaves the main thread alone, and gives them back', async () => {
      const core = ClientCore.start({ tickMs: 60_000 });
      if (!core) throw new Error('taskset is missing: apt-get install util-linux');
      try {
        core.confine();
        expect(core.confined).to.equal(true);
        await eventually('job threads confined', () => tids.every((t) => cpusOf(t).length === all.length - 1));
        for (const t of tids) expect(cpusOf(t)).to.deep.equal(all.slice(1));
        expect(cpusOf(process.pid)).to.deep.equal(all);
        core.release();
        expect(core.confined).to.equal(false);
        await eventually('job threads released', () => tids.every((t) => cpusOf(t).length === all.length));
      } finally {
        core.close();
      }
    });

    it('starts its shell with itself, so that the first busy tick starts no process (a fork holds the event loop)', async () => {
      const before = shellChildren();
      const core = ClientCore.start({ tickMs: 60_000 });
      if (!core) throw new Error('taskset is missing: apt-get install util-linux');
      try {
        const started = shellChildren().filter((pid) => !before.includes(pid));
        expect(started, 'shells started by ClientCore.start').to.have.length(1);
        core.confine();
        await eventually('job threads confined', () => tids.every((t) => cpusOf(t).length === all.length - 1));
        expect(shellChildren().filter((pid) => !before.includes(pid)), 'shells after confining').to.deep.equal(started);
        core.release();
        await eventually('job threads released', () => tids.every((t) => cpusOf(t).length === all.length));
      } finally {
        core.close();
      }
      await eventually('the shell ended with its input', () => !shellChildren().some((pid) => !before.includes(pid)));
    });

    it('while it is one job thread\'s turn, another waits at its next checkpoint until every thread\'s turn comes', async () => {
      try {
        giveTurn(tids[0]!);
        const finished: Array<{ tid: number; finished: number }> = [];
        const calls = [1, 2].map(() => pool.run<{ tid: number; finished: number }>(THREAD_JOBS, 'spin', 50).then((r) => finished.push(r)));
        await eventually('the call on the thread whose turn it is', () => finished.length === 1);
        await new Promise((r) => setTimeout(r, 300));
        expect(finished.map((f) => f.tid)).to.deep.equal([tids[0]]);
        const released = Date.now();
        giveTurn(0);
        await Promise.all(calls);
        expect(finished[1]!.tid).to.equal(tids[1]);
        expect(finished[1]!.finished).to.be.at.least(released);
      } finally {
        giveTurn(0);
      }
    });

    it('gives the turn to one job thread while confined, and every thread\'s turn on release', () => {
      const core = ClientCore.start({ tickMs: 60_000, quietTicks: 2 });
      if (!core) throw new Error('taskset is missing: apt-get install util-linux');
      try {
        core.observe(100, 1);
        expect(jobThreadIds()).to.include(whoseTurn());
        core.observe(0, 0);
        core.observe(0, 0);
        expect(core.confined).to.equal(false);
        expect(whoseTurn()).to.equal(0);
      } finally {
        core.close();
      }
    });

    it('a forest grown in two threads while they take turns is whole, each thread getting turns', async () => {
      // Every tick counts as busy: the threads stay confined and take turns throughout.
      const core = ClientCore.start({ tickMs: 20, minRequests: 0, minUtilisation: 0 });
      if (!core) throw new Error('taskset is missing: apt-get install util-linux');
      const turns = new Set<number>();
      const watch = setInterval(() => turns.add(whoseTurn()), 5);
      try {
        const rng = seededRng(5);
        const fps = Array.from({ length: 1000 }, () => Array.from({ length: 96 }, () => (rng() < 0.1 ? 1 : 0)));
        const labels = fps.map((r) => (r[0] || r[7] ? 1 : 0));
        const opt = { classes: 2, trees: 100, mtry: 0, maxDepth: 40, minLeaf: 1, seed: 11 };
        const threaded = await fitForestThreads(fps, labels, opt, undefined, 2);
        expect(core.confined).to.equal(true);
        expect(threaded).to.deep.equal(fitForest(fps, labels, opt));
        turns.delete(0);
        expect(turns.size, 'threads that had a turn').to.be.at.least(2);
      } finally {
        clearInterval(watch);
        core.close();
      }
      expect(whoseTurn()).to.equal(0);
    });

    it('decides per tick: requests and a busy event loop confine, quiet ticks in a row release', () => {
      const core = ClientCore.start({ tickMs: 60_000, minRequests: 20, minUtilisation: 0.5, quietTicks: 3 });
      if (!core) throw new Error('taskset is missing: apt-get install util-linux');
      try {
        core.observe(1000, 0.2); // many requests, an idle loop: a client waiting on its own job
        expect(core.confined).to.equal(false);
        core.observe(5, 1); // a busy loop, few requests: the jobs' own store writes
        expect(core.confined).to.equal(false);
        core.observe(20, 0.5);
        expect(core.confined).to.equal(true);
        core.observe(0, 0);
        core.observe(0, 0);
        expect(core.confined).to.equal(true);
        core.observe(500, 0.9); // busy again: the quiet count starts over
        core.observe(0, 0);
        core.observe(0, 0);
        expect(core.confined).to.equal(true);
        core.observe(0, 0);
        expect(core.confined).to.equal(false);
      } finally {
        core.close();
      }
    });

    it('confines the job threads while a client floods an HTTP server, and releases them after', async () => {
      const core = ClientCore.start({ tickMs: 50, quietTicks: 4 });
      if (!core) throw new Error('taskset is missing: apt-get install util-linux');
      const server: Server = createServer((_req, res) => res.end('ok'));
      server.on('request', () => core.request());
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
      let flooding = true;
      const client = async () => {
        while (flooding) await (await fetch(url)).text();
      };
      const clients = Array.from({ length: 8 }, client);
      try {
        await eventually('confined under the flood', () => core.confined && tids.every((t) => cpusOf(t).length === all.length - 1));
        flooding = false;
        await Promise.all(clients);
        await eventually('released after the flood', () => !core.confined && tids.every((t) => cpusOf(t).length === all.length));
      } finally {
        flooding = false;
        core.close();
        await new Promise((r) => server.close(r));
      }
    });
  });
});
