// /task (SPEC §4.3): list (optionally by status), read with the status code of the task's
// state, cancel. Access control (SPEC §5, 401) is the auth middleware's job.
import Router from '@koa/router';
import type Koa from 'koa';
import type { Deps } from '../deps.ts';
import { uriOf } from '../deps.ts';
import { BadRequest, NotFound } from '../errors.ts';
import { handle } from '../http/send.ts';
import { fetchPage, pagingHeaders, parsePaging } from '../http/paging.ts';
import { rdfReply, uriListReply } from '../http/reply.ts';
import { ERR } from '../rdf/vocab.ts';
import type { TaskStatus } from '../tasks/api.ts';
import { listTasks, publicQuads, publicTaskGraphs, readTask } from '../tasks/tasks.ts';
import { taskReply } from '../tasks/taskReply.ts';
import { isTaskId } from '../tasks/ids.ts';
import { STATUSES, parseStatus } from '../tasks/stateMachine.ts';
import { callerOf } from '../auth/caller.ts';
import { aclGraph } from '../auth/owners.ts';

function taskUriOf(deps: Deps, ctx: Koa.Context): string {
  const id = String(ctx.params.id);
  if (!isTaskId(id)) {
    throw new BadRequest(`wrong task id "${id.slice(0, 100)}"`, {
      code: ERR.InvalidTaskId,
      details: 'Task ids are UUIDs, as in the task URIs this service returns.',
    });
  }
  return uriOf(deps.config, `/task/${id}`);
}

function notFound(uri: string): NotFound {
  return new NotFound(`no task ${uri}`, { code: ERR.TaskNotFound, details: 'It never existed, or it finished long ago and was purged.' });
}

export function taskRouter(deps: Deps): Router {
  const router = new Router();

  router.get('/task', handle(async (ctx) => {
    const raw = ctx.query.query;
    let status: TaskStatus | undefined;
    if (raw !== undefined) {
      status = parseStatus(String(raw));
      if (!status) {
        throw new BadRequest(`unknown task status "${String(raw).slice(0, 50)}" in query`, {
          code: ERR.InvalidParameter,
          details: `query takes one of ${STATUSES.join(', ')}.`,
        });
      }
    }
    const paging = parsePaging(ctx.query, deps.config);
    // With auth on, each user lists only their own tasks (SPEC §5.2).
    const user = callerOf(ctx).owner;
    const owned = deps.identity && user !== undefined ? { acl: aclGraph(deps.config), owner: user } : undefined;
    const { items: uris, hasMore } = await fetchPage(paging, (limit, offset) => listTasks(deps.store, status, limit, offset, owned));
    const quads = () => publicTaskGraphs(deps.store, uris);
    return uriListReply(uris, { quads, headers: pagingHeaders(uriOf(deps.config, ctx.url), paging, hasMore) });
  }));

  router.get('/task/:id', handle(async (ctx) => {
    const uri = taskUriOf(deps, ctx);
    const t = await readTask(deps.store, uri);
    if (!t) throw notFound(uri);
    // Cached once finished (only 200 answers are: src/http/cache.ts); a running task's graph changes as it runs.
    return { ...taskReply(t.record, t.quads, deps.config.baseUrl), depends: [uri] };
  }));

  router.delete('/task/:id', handle(async (ctx) => {
    const uri = taskUriOf(deps, ctx);
    if (!(await deps.tasks.cancel(uri))) throw notFound(uri);
    // SPEC §4.3: 200 whether it was cancelled now or had already finished.
    const t = await readTask(deps.store, uri);
    if (!t) throw notFound(uri);
    return rdfReply(publicQuads(t.quads), { uris: [uri] });
  }));

  return router;
}
