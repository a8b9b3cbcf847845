// The real error and auth middleware in front of a small fake resource router, so the
// access policy is tested on its own, whichever resource routers exist yet.
import Koa from 'koa';
import Router from '@koa/router';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { rmSync } from 'node:fs';
import { loadConfig, type Config } from '../../src/config.ts';
import { openDeps, type Running } from '../../src/boot.ts';
import { createLogger } from '../../src/logger.ts';
import { uriOf } from '../../src/deps.ts';
import { errorMiddleware } from '../../src/http/errorMiddleware.ts';
import { authMiddleware } from '../../src/auth/middleware.ts';
import { callerOf } from '../../src/auth/caller.ts';
import { authRouter } from '../../src/routes/auth.ts';
import { readForm } from '../../src/http/body.ts';
import { BadRequest } from '../../src/errors.ts';
import { bodyReply, emptyReply, uriListReply } from '../../src/http/reply.ts';
import { handle } from '../../src/http/send.ts';
import { tempDir } from './app.ts';
import type { IdentityService } from '../../src/auth/identity.ts';
import { releaseVirtuoso, storeConfig } from './engines.ts';

export interface Harness {
  url: string;
  deps: Running;
  close: () => Promise<void>;
}

function fakeResources(deps: Running): Router {
  const router = new Router();
  let next = 0;
  const mint = (path: string) => uriOf(deps.config, `${path}/${++next}`);
  const whoami = handle((ctx) => bodyReply('application/json', JSON.stringify(callerOf(ctx))));
  router.get('/whoami', whoami);
  router.post('/whoami', whoami);
  router.post('/dataset', handle(async (ctx) => {
    // The body is still whole after the middleware read subjectid from it.
    const form = await readForm(ctx);
    return uriListReply([mint('/dataset')], { headers: { 'X-Title': form.get('title') ?? '' } });
  }));
  router.get('/dataset/:id', handle(() => bodyReply('text/plain', 'a dataset')));
  router.put('/dataset/:id', handle(() => emptyReply()));
  router.delete('/dataset/:id', handle(() => emptyReply()));
  router.post('/algorithm/:id', handle(() => uriListReply([mint('/task')], { status: 202 })));
  router.post('/model/:id', handle((ctx) => uriListReply([mint('/dataset')], { headers: { Location: mint('/dataset') + (ctx.query.x ?? '') } })));
  router.get('/task/:id', handle((ctx) => uriListReply([uriOf(deps.config, ctx.path)], { status: 202 })));
  router.delete('/task/:id', handle(() => emptyReply()));
  router.get('/fail', handle((ctx) => {
    throw new BadRequest(`cannot read http://alice:pw@host/x?subjectid=${String(ctx.query.echo)}`, { details: `Authorization: Bearer ${String(ctx.query.echo)}` });
  }));
  return router;
}

export async function startHarness(overrides: Partial<Config> = {}, identity?: IdentityService, dataDir = tempDir()): Promise<Harness> {
  const store = await storeConfig(dataDir);
  const config = loadConfig([], {}, { port: 0, dataDir, ...store, ...overrides });
  const deps = await openDeps(config, createLogger('silent'));
  if (identity) deps.identity = identity;
  const app = new Koa();
  app.silent = true;
  app.use(errorMiddleware({ actor: uriOf(config, '/'), debug: false }));
  app.use(authMiddleware(deps));
  for (const router of [authRouter(deps), fakeResources(deps)]) app.use(router.routes()).use(router.allowedMethods());
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  config.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: config.baseUrl,
    deps,
    close: async () => {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
      await deps.close();
      if (store.sparqlEndpoint) await releaseVirtuoso(dataDir);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
