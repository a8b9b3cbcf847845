// The BullMQ job queue against a real Redis (Debian's redis-server, started from a temp
// dir on a free loopback port): delivery, cancellation across processes, a worker killed
// mid-job, and Redis away.
import { expect } from 'chai';
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startRedis, type Redis } from '../../../scripts/engines/redis.ts';
import { freePort } from '../../../scripts/engines/ports.ts';
import { RedisQueue } from '../../../src/tasks/redis/redisQueue.ts';
import type { Delivery } from '../../../src/tasks/queue.ts';
import { HttpError } from '../../../src/errors.ts';
import { tempDir } from '../../helpers/app.ts';
import { until } from '../../helpers/until.ts';

const WORKER = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../helpers/queueWorker.ts');
const task = (n: number | string) => `http://example.org/task/0190-${n}`;

describe('Redis job queue (BullMQ)', function () {
  this.timeout(60_000);
  let redis: Redis;
  let dir: string;
  const queues: RedisQueue[] = [];
  const open = (prefix: string, extra = {}) => {
    const q = new RedisQueue({ url: redis.url, prefix, lockDurationMs: 1000, stalledIntervalMs: 500, ...extra });
    queues.push(q);
    return q;
  };

  before(async () => {
    dir = tempDir('opentox-redis-');
    redis = await startRedis(dir);
  });
  afterEach(async () => {
    await Promise.all(queues.splice(0).map((q) => q.close()));
  });
  after(async () => {
    await redis?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('delivers a job to a consumer in another queue instance, once', async () => {
    const api = open('t1');
    const worker = open('t1');
    const seen: Delivery[] = [];
    worker.consume(async (d) => { seen.push(d); }, 2);
    await api.enqueue({ taskUri: task(1), kind: 'noop', idempotent: true });
    await until('delivery', () => seen.length === 1);
    expect(seen[0]!.job).to.deep.equal({ taskUri: task(1), kind: 'noop', idempotent: true });
    expect(seen[0]!.redelivered).to.equal(false);
    await new Promise((r) => setTimeout(r, 300));
    expect(seen).to.have.length(1);
  });

  it('a cancel from the API instance aborts the job where it runs', async () => {
    const api = open('t2');
    const worker = open('t2');
    let aborted: unknown;
    let started = false;
    worker.consume(async ({ signal }) => {
      started = true;
      await new Promise<void>((resolve) => signal.addEventListener('abort', () => { aborted = signal.reason; resolve(); }));
    }, 1);
    await api.enqueue({ taskUri: task(2), kind: 'slow', idempotent: false });
    await until('start', () => started);
    await api.cancel(task(2));
    await until('abort', () => aborted !== undefined);
  });

  it('a cancelled job that still waits never runs', async () => {
    const api = open('t3');
    await api.enqueue({ taskUri: task(3), kind: 'noop', idempotent: true });
    await api.cancel(task(3));
    const worker = open('t3');
    const seen: string[] = [];
    worker.consume(async (d) => { seen.push(d.job.taskUri); }, 1);
    await api.enqueue({ taskUri: task(4), kind: 'noop', idempotent: true });
    await until('the next job', () => seen.includes(task(4)));
    expect(seen).to.deep.equal([task(4)]);
  });

  it('a job whose worker process is SIGKILLed is handed to another worker, marked redelivered', async () => {
    const api = open('t4');
    const child = spawn(process.execPath, ['--import', 'tsx', WORKER, redis.url, 't4'], { stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = new Promise((r) => child.once('exit', r));
    let out = '';
    child.stdout!.on('data', (d: Buffer) => { out += d.toString(); });
    await api.enqueue({ taskUri: task(5), kind: 'build', idempotent: false });
    await until('the child to take the job', () => out.includes(`RUNNING ${task(5)}`), 30_000);
    child.kill('SIGKILL');
    await exited;
    const worker = open('t4');
    const seen: Delivery[] = [];
    worker.consume(async (d) => { seen.push(d); }, 1);
    await until('redelivery', () => seen.length === 1, 20_000);
    expect(seen[0]!.job.taskUri).to.equal(task(5));
    expect(seen[0]!.redelivered).to.equal(true);
  });

  it('with Redis unreachable a submission answers 503 with Retry-After, quickly', async () => {
    const port = await freePort();
    const dead = new RedisQueue({ url: `redis://:secret@127.0.0.1:${port}` });
    queues.push(dead);
    const started = Date.now();
    const e = (await dead.enqueue({ taskUri: task(6), kind: 'noop', idempotent: true }).then(() => null, (x: unknown) => x)) as HttpError;
    expect(e).to.be.instanceOf(HttpError);
    expect(e.status).to.equal(503);
    expect(e.headers['Retry-After']).to.equal('5');
    expect(e.message).to.contain(`127.0.0.1:${port}`).and.not.contain('secret');
    expect(Date.now() - started).to.be.lessThan(6000);
  });
});
