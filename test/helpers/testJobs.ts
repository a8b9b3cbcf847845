// Job kinds for tests only (never in the public catalogue), and a tiny app
// that starts them the way a resource would (SPEC §4.3 "Creating a task").
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import Router from '@koa/router';
import type { Deps } from '../../src/deps.ts';
import { BadRequest } from '../../src/errors.ts';
import { errorMiddleware } from '../../src/http/errorMiddleware.ts';
import { handle } from '../../src/http/send.ts';
import type { JobContext, TaskEngine } from '../../src/tasks/api.ts';

export const WORKER_JOBS = new URL('./workerJobs.ts', import.meta.url);

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(t);
      reject(signal.reason);
    }, { once: true });
  });

export interface TestParams {
  result?: string;
  ms?: number;
  message?: string;
  status?: number;
}

/**
 * Every test job kind, as [kind, idempotent, run]. `ran` lists the kinds run; `discarded` the
 * parameters of the cancelled tasks whose holdings were discarded (JobDefinition.discard).
 */
export function defineTestJobs(tasks: TaskEngine, options: { slowIdempotent?: boolean } = {}): { ran: string[]; discarded: TestParams[] } {
  const ran: string[] = [];
  const discarded: TestParams[] = [];
  const define = (kind: string, run: (p: TestParams, ctx: JobContext) => Promise<string | string[]>, idempotent = false) =>
    tasks.define<TestParams>({ kind, idempotent, run: (p, ctx) => { ran.push(kind); return run(p, ctx); }, discard: async (p) => { discarded.push(p); } });
  define('test-noop', async (p) => p.result ?? 'http://example.org/result/1');
  define('test-bad-result', async () => 'not a URI');
  define('test-slow', async (p, ctx) => {
    const steps = 10;
    for (let i = 1; i <= steps; i++) {
      await sleep((p.ms ?? 1000) / steps, ctx.signal);
      ctx.progress((i / steps) * 100);
    }
    return p.result ?? 'http://example.org/result/slow';
  }, options.slowIdempotent ?? false);
  define('test-fail', async (p) => {
    if (p.status === 400) throw new BadRequest(p.message ?? 'bad parameter');
    throw new Error(p.message ?? 'the job failed');
  });
  define('test-worker', async (p, ctx) => {
    await ctx.runInWorker(WORKER_JOBS, 'spin', { ms: p.ms ?? 200 }, { onProgress: ctx.progress });
    return p.result ?? 'http://example.org/result/worker';
  });
  define('test-resume', async (p, ctx) => {
    const next = await tasks.submit('test-slow', { ms: p.ms ?? 2000 }, { title: 'resumed', creator: ctx.taskUri });
    return next.uri;
  });
  return { ran, discarded };
}

/** A resource that starts job KIND with the posted JSON parameters and answers tasks.reply. */
export async function startJobApp(deps: Deps): Promise<{ url: string; close: () => Promise<void> }> {
  const app = new Koa();
  app.silent = true;
  app.use(errorMiddleware({ actor: deps.config.baseUrl, debug: false }));
  const router = new Router();
  router.post('/start/:kind', handle(async (ctx) => {
    const chunks: Buffer[] = [];
    for await (const c of ctx.req) chunks.push(c as Buffer);
    const params = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : {};
    return deps.tasks.runAsTask(String(ctx.params.kind), params, { title: `test ${ctx.params.kind}`, creator: `${deps.config.baseUrl}/algorithm/test` });
  }));
  app.use(router.routes());
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}
