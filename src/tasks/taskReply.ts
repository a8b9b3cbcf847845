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
import { publicQuads, taskQuads } from './tasks.ts';
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
export function taskReply(t: TaskRecord, quads: readonly RDF.Quad[], base: string): Reply {
  const status = taskStatusCode(t, base);
  const headers: Record<string, string> = {};
  if (status === 202) headers.Location = t.uri;
  if (status === 201) headers.Location = t.resultUris[0]!; // 201: exactly one result
  return rdfReply(publicQuads(quads), { status, headers, uris: uriListOf(t, status) });
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
  const record = async (): Promise<RDF.Quad[]> => {
    const now = new Date();
    const t: TaskRecord = {
      uri: uriOf(deps.config, `/task/${uuidv7()}`),
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
  return { status: 200, headers: {}, variants: [uriListVariant(results), ...rdfVariants(task)] };
}
