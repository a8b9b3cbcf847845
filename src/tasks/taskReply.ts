// Status code and body of a task per state and Accept (SPEC §4.3 "Accessing a task",
// "Creating a task", §7.1). RDF/XML (the task object) is the default; text/uri-list
// carries the URI the client should follow next.
import type * as RDF from '@rdfjs/types';
import type { Deps } from '../deps.ts';
import { uriOf } from '../deps.ts';
import { rdfReply, rdfVariants, uriListVariant, type Reply } from '../http/reply.ts';
import { recordOwner } from '../auth/owners.ts';
import { redact } from '../util/redact.ts';
import type { TaskRecord } from './tasks.ts';
import { publicQuads, readTask, taskQuads } from './tasks.ts';
import type { PreferredReply } from '../http/prefer.ts';
import { uuidv7 } from './ids.ts';

/** True when `uri` names a task of this service (a job resumed by another task: 201). */
export function isTaskUri(uri: string, base: string): boolean {
  return uri.startsWith(`${base}/task/`);
}

/** SPEC §4.3 / §7.1: the status that tells a polling client what happened. */
export function taskStatusCode(t: TaskRecord, base: string): number {
  switch (t.status) {
    case 'Queued':
    case 'Running':
      return 202;
    case 'Completed':
      return t.resultUris.length === 1 && isTaskUri(t.resultUris[0]!, base) ? 201 : 200;
    case 'Cancelled':
      return 503;
    case 'Error':
      return t.error?.status ?? 500;
  }
}

/** Body of the text/uri-list variant: the result(s) when done, else the task itself. */
function uriListOf(t: TaskRecord, status: number): string[] {
  if ((status === 200 || status === 201) && t.resultUris.length > 0) return t.resultUris;
  return [t.uri];
}

/**
 * The reply for task `t` stored as `quads`, for GET /task/{id} and for the resource that
 * started the job alike: a 202 names the task in `Location` (SPEC §4.3 "Creating a task"),
 * a 201 the task that resumes the job.
 */
export function taskReply(t: TaskRecord, quads: readonly RDF.Quad[], base: string, options: { async?: boolean } = {}): Reply {
  // RFC 7240 §4.1 respond-async: the task, whatever state it has reached.
  const status = options.async ? 202 : taskStatusCode(t, base);
  const headers: Record<string, string> = {};
  if (status === 202) headers.Location = t.uri;
  if (status === 201) headers.Location = t.resultUris[0]!; // 201: exactly one result
  const reply = rdfReply(publicQuads(quads), { status, headers, uris: uriListOf(t, status) });
  reply.task = () => Promise.resolve(t.uri);
  return reply;
}

/**
 * Prefer on a job's answer (RFC 7240, src/http/prefer.ts): with `wait=N` a task still
 * running is awaited until N seconds after the request came, then answered as GET
 * /task/{id} would (200 with the result, a failed task's status and report, or 202 still);
 * `respond-async` alone answers 202 with the task even when the job is done.
 * Preference-Applied names what was honoured (§5), with the wait as capped.
 */
export function preferredReply(deps: Deps): PreferredReply {
  return async (reply, prefs) => {
    const { waitSeconds, respondAsync } = prefs;
    const waits = waitSeconds !== undefined;
    if (!reply.task || (waits && reply.status !== 202) || (!waits && !respondAsync)) return reply;
    const uri = await reply.task();
    if (waits) await deps.tasks.settled(uri, Math.max(0, waitSeconds * 1000 - (Date.now() - prefs.since)));
    const t = await readTask(deps.store, uri);
    if (!t) return reply;
    const answer = taskReply(t.record, t.quads, deps.config.baseUrl, { async: !waits });
    const applied = waits ? [`wait=${waitSeconds}`] : [];
    if (respondAsync && answer.status === 202) applied.unshift('respond-async');
    if (applied.length > 0) answer.headers['Preference-Applied'] = applied.join(', ');
    return answer;
  };
}

export interface DirectJob {
  title: string;
  /** URI of the resource where the job was started (dc:creator, SPEC §2.4). */
  creator: string;
  owner?: string;
}

/**
 * The answer of a job done within the request (SPEC §4.3 "Creating a task": 200 with
 * text/uri-list is the result URI, 200 with RDF the task object). text/uri-list stays the
 * default; the Completed task is recorded only when a client asks for RDF, so that its URI
 * dereferences like any other task's.
 */
export function directReply(deps: Deps, results: readonly string[], job: DirectJob): Reply {
  let recorded: Promise<RDF.Quad[]> | undefined;
  const uri = uriOf(deps.config, `/task/${uuidv7()}`);
  const record = async (): Promise<RDF.Quad[]> => {
    const now = new Date();
    const t: TaskRecord = {
      uri,
      creator: job.creator,
      status: 'Completed',
      date: now,
      ended: now,
      title: redact(job.title),
      percentageCompleted: 100,
      resultUris: [...results],
      kind: 'direct',
      params: '{}',
      owner: job.owner,
      idempotent: true,
    };
    const quads = taskQuads(t);
    await deps.store.replaceGraph(t.uri, quads);
    await recordOwner(deps, t.uri, job.owner);
    return publicQuads(quads);
  };
  const task = () => (recorded ??= record());
  const taskUri = async () => (await task(), uri);
  return { status: 200, headers: {}, variants: [uriListVariant(results), ...rdfVariants(task)], task: taskUri };
}
