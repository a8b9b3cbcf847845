// createApp(deps): middleware in a fixed order and every router mounted; no port, no
// process effects (src/main.ts owns those).
import Koa from 'koa';
import type Router from '@koa/router';
import type { Deps } from './deps.ts';
import { uriOf } from './deps.ts';
import { errorMiddleware } from './http/errorMiddleware.ts';
import { rootRouter } from './routes/root.ts';
import { featureRouter } from './routes/feature.ts';
import { datasetRouter } from './routes/dataset.ts';
import { datasetWarningsRouter } from './routes/datasetWarnings.ts';
import { modelRouter } from './routes/model.ts';
import { sparqlRouter } from './routes/sparql.ts';
import { ontologyRouter } from './routes/ontology.ts';
import { taskRouter } from './routes/task.ts';
import { compoundRouter } from './routes/compound.ts';
import { searchRouter } from './search/routes.ts';
import { algorithmRouter } from './routes/algorithm.ts';
import { authRouter } from './routes/auth.ts';
import { validationRouter } from './routes/validation.ts';
import { staticRouter } from './pages/staticAssets.ts';
import { apiDocsRouter } from './openapi/routes.ts';
import { authMiddleware } from './auth/middleware.ts';
import { corsMiddleware } from './http/cors.ts';
import { accessLog } from './http/accessLog.ts';
import { logSink } from './logger.ts';
import { pagesMiddleware } from './pages/pages.ts';
import { compression } from './http/compress.ts';
import { representationCache } from './http/cache.ts';
import { limitsMiddleware } from './http/limits.ts';
import { withFetchBudget } from './http/outbound/budget.ts';
import { securityHeaders } from './http/securityHeaders.ts';
import { preferMiddleware } from './http/prefer.ts';
import { preferredReply } from './tasks/taskReply.ts';

/** Router factories, mounted in this order. Each resource adds its own here. */
// searchRouter comes before the compound and dataset routers: it answers GETs with search
// parameters and passes every other request on.
const ROUTERS: Array<(deps: Deps) => Router> = [rootRouter, apiDocsRouter, sparqlRouter, ontologyRouter, taskRouter, searchRouter, compoundRouter, featureRouter, datasetRouter, datasetWarningsRouter, modelRouter, algorithmRouter, validationRouter, authRouter, staticRouter];

export function createApp(deps: Deps): Koa {
  const app = new Koa();
  // X-Forwarded-For decides the client address (login rate limit): trusted only when a
  // proxy in front is known to set it, else any client could choose its address.
  app.proxy = deps.config.trustProxy;
  // Errors are answered as reports by errorMiddleware; Koa's own logging would repeat them.
  app.silent = true;
  // The base plain JSON bodies name their context under (src/http/jsonEdge.ts), error reports' too.
  app.use((ctx, next) => {
    (ctx.state as { serviceBase?: string }).serviceBase = deps.config.baseUrl;
    return next();
  });
  // Outermost, before the access log: every answer carries these (pages add their policy, src/pages/pages.ts).
  app.use(securityHeaders());
  // The access log is outermost, so it sees every answer as sent (errors and preflights too).
  app.use(accessLog(deps.logger));
  // CORS next: preflights are answered before anything else, and every answer (errors too) carries its headers.
  const cors = corsMiddleware(deps.config);
  if (cors) app.use(cors);
  // Codes every body set inside, error reports too (RFC 9110 §8.4).
  app.use(compression());
  app.use(errorMiddleware({ actor: uriOf(deps.config, '/'), debug: deps.config.debug, log: logSink(deps.logger) }));
  // Processes sharing the store answer as one: what any of them acknowledged before this
  // request arrived is heard here before anything is read (src/store/changeFeed.ts).
  if (deps.changes.shared) {
    app.use(async (_ctx, next) => {
      await deps.changes.caughtUp();
      await next();
    });
  }
  // text/html for browsers (src/pages), error pages included: installed before anything can throw.
  app.use(pagesMiddleware(deps));
  // Limits (src/http/limits.ts), the body limit among them, before anything reads a body.
  app.use(limitsMiddleware(deps.config));
  // Requests to other services made while answering (token checks, validation inputs) are counted per request.
  app.use((_ctx, next) => withFetchBudget(deps.config.remoteMaxFetches, next));
  // Who is calling and may they: before every router, after the body limit is known.
  app.use(authMiddleware(deps));
  // Notes the store's write counter before any router reads (src/http/cache.ts).
  app.use(representationCache(deps.store));
  // Prefer: wait / respond-async on the POSTs that start jobs (RFC 7240).
  app.use(preferMiddleware(preferredReply(deps)));
  for (const make of ROUTERS) {
    const router = make(deps);
    app.use(router.routes());
    app.use(router.allowedMethods());
  }
  return app;
}
