// Routes of the pages: which renderer turns a reply into HTML, by path. Installed as a
// per-request hook that src/http/send.ts calls when Accept prefers text/html.
import type Koa from 'koa';
import type { Deps } from '../deps.ts';
import type { PageRenderer } from '../http/send.ts';
import type { Reply } from '../http/reply.ts';
import { pageInput, type Renderer } from './page.ts';
import { errorPage } from './errorPage.ts';
import { resourcePage } from './resourcePage.ts';
import { rootPage } from './rootPage.ts';
import { listPage } from './listPage.ts';
import { compoundPage } from './compoundPage.ts';
import { datasetPage } from './datasetPage.ts';
import { algorithmPage } from './algorithmPage.ts';
import { modelPage } from './modelPage.ts';
import { taskPage } from './taskPage.ts';
import { answerPage } from './answerPage.ts';
import { validationPage } from './validationPage.ts';
import { comparisonPage } from './comparisonPage.ts';
import { pageHeaders } from './pagePolicy.ts';

const ROUTES: ReadonlyArray<[RegExp, Renderer]> = [
  [/^\/$/, rootPage],
  [/^\/(?<kind>compound|dataset|feature|algorithm|model|task|validation)\/?$/, listPage],
  [/^\/compound\/(?<id>\d+)$/, compoundPage],
  [/^\/dataset\/(?<id>[^/]+)$/, datasetPage],
  [/^\/algorithm\/(?<id>[^/]+)$/, algorithmPage],
  [/^\/model\/(?<id>[^/]+)$/, modelPage],
  [/^\/task\/(?<id>[^/]+)$/, taskPage],
  [/^\/validation\/report\/algorithm_comparison$/, comparisonPage],
  [/^\/validation\/(?<id>[^/]+)$/, validationPage],
];

function renderer(path: string): { render: Renderer; params: Record<string, string> } | undefined {
  for (const [pattern, render] of ROUTES) {
    const m = pattern.exec(path);
    if (m) return { render, params: { ...m.groups } };
  }
  return undefined;
}

export const renderPage = (deps: Deps): PageRenderer => {
  const policy = pageHeaders(deps.config.baseUrl);
  return (ctx, reply) => {
    // Every page, error pages too, carries its policy (pagePolicy.ts).
    ctx.set(policy);
    return pageOf(deps, ctx, reply);
  };
};

function pageOf(deps: Deps, ctx: Koa.Context, reply: Reply): Promise<string> {
  const route = renderer(ctx.path);
  // A task in the Error state answers its error's status, yet is a task: its page says so.
  if (reply.status >= 400 && route?.render !== taskPage) return errorPage(pageInput(ctx, reply, deps, {}));
  // A posted form is answered with the URIs it made, unless the reply is a page of its own
  // (the comparison report answers a POST with the report itself).
  if (ctx.method !== 'GET' && ctx.method !== 'HEAD' && !reply.page) return answerPage(pageInput(ctx, reply, deps, {}));
  return (route?.render ?? resourcePage)(pageInput(ctx, reply, deps, route?.params ?? {}));
}

/** Installs the page hook for every request (see send.ts). */
export function pagesMiddleware(deps: Deps): Koa.Middleware {
  const page = renderPage(deps);
  return (ctx, next) => {
    (ctx.state as { page?: PageRenderer }).page = page;
    return next();
  };
}
