// The task resource (SPEC §2.4) as triples: one graph per task, named by the task URI.
// The engine's private fields (job kind, JSON parameters, owner) live in the same graph so
// a Queued task can run after a restart; `publicQuads` strips them from every answer.
import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'n3';
import type { ErrorReportData } from '../errors.ts';
import { reportQuads } from '../http/errorReport.ts';
import { bound, type Store } from '../store/api.ts';
import type { Bindable } from '../store/binder.ts';
import { DC, JOB, OT, RDF as RDFNS, XSD } from '../rdf/vocab.ts';
import type { TaskInfo, TaskStatus } from './api.ts';
import { parseStatus } from './stateMachine.ts';

const { quad, namedNode, literal } = DataFactory;

export interface TaskRecord extends TaskInfo {
  date: Date;
  title: string;
  description?: string;
  /** Set when the task reached a final state; drives the retention purge. */
  ended?: Date;
  /** The report of a task in status Error (ot:error). */
  error?: ErrorReportData;
  kind: string;
  /** The job parameters as JSON text. */
  params: string;
  owner?: string;
  idempotent: boolean;
}

/** IRI of the error report embedded in a failed task. */
export const errorIriOf = (taskUri: string): string => `${taskUri}#error`;

const anyUri = (uri: string) => literal(uri, XSD.anyURI);
const dateTime = (d: Date) => literal(d.toISOString(), XSD.dateTime);

export function taskQuads(t: TaskRecord): RDF.Quad[] {
  const s = namedNode(t.uri);
  const out: RDF.Quad[] = [
    quad(s, RDFNS.type, OT.Task),
    quad(s, DC.date, dateTime(t.date)),
    quad(s, DC.creator, anyUri(t.creator)),
    quad(s, DC.title, literal(t.title)),
    quad(s, OT.hasStatus, literal(t.status)),
    quad(s, OT.percentageCompleted, literal(t.percentageCompleted.toFixed(1), XSD.float)),
    quad(s, JOB.kind, literal(t.kind)),
    quad(s, JOB.params, literal(t.params)),
    quad(s, JOB.idempotent, literal(String(t.idempotent), XSD.boolean)),
  ];
  if (t.description) out.push(quad(s, DC.description, literal(t.description)));
  if (t.owner) out.push(quad(s, JOB.owner, literal(t.owner)));
  if (t.ended) out.push(quad(s, JOB.ended, dateTime(t.ended)));
  // SPEC §2.4: ot:resultURI only when Completed.
  if (t.status === 'Completed') for (const r of t.resultUris) out.push(quad(s, OT.resultURI, anyUri(r)));
  if (t.status === 'Error' && t.error) {
    const report = namedNode(errorIriOf(t.uri));
    out.push(quad(s, OT.error, report), ...reportQuads(t.error, report));
  }
  return out;
}

/** The triples a client may see: everything but the engine's private namespace. */
export function publicQuads(quads: readonly RDF.Quad[]): RDF.Quad[] {
  return quads.filter((q) => !q.predicate.value.startsWith(JOB.ns));
}

/**
 * Values by subject and predicate, read in one pass: each property of an Oxigraph term is a
 * call into WASM, so scanning the quads once per field made reading a task ~20x slower.
 */
function valuesOf(quads: readonly RDF.Quad[]): (s: string, p: RDF.NamedNode) => string[] {
  const map = new Map<string, string[]>();
  for (const q of quads) {
    const key = `${q.subject.value} ${q.predicate.value}`;
    const list = map.get(key);
    if (list) list.push(q.object.value);
    else map.set(key, [q.object.value]);
  }
  return (s, p) => map.get(`${s} ${p.value}`) ?? [];
}

/** Reads a task back from its graph; undefined when the graph holds no ot:Task. */
export function recordFromQuads(uri: string, quads: readonly RDF.Quad[]): TaskRecord | undefined {
  const values = valuesOf(quads);
  const get = (p: RDF.NamedNode): string | undefined => values(uri, p)[0];
  const status = parseStatus(get(OT.hasStatus) ?? '');
  if (!status) return undefined;
  const ended = get(JOB.ended);
  const record: TaskRecord = {
    uri,
    status,
    creator: get(DC.creator) ?? '',
    title: get(DC.title) ?? '',
    description: get(DC.description),
    date: new Date(get(DC.date) ?? 0),
    ended: ended ? new Date(ended) : undefined,
    percentageCompleted: Number(get(OT.percentageCompleted) ?? 0),
    resultUris: values(uri, OT.resultURI),
    kind: get(JOB.kind) ?? '',
    params: get(JOB.params) ?? 'null',
    owner: get(JOB.owner),
    idempotent: get(JOB.idempotent) === 'true',
  };
  const reportIri = get(OT.error);
  if (reportIri) {
    const r = (p: RDF.NamedNode) => values(reportIri, p)[0];
    record.error = {
      status: Number(r(OT.statusCode) ?? 500),
      code: r(OT.errorCode) ?? '',
      actor: r(OT.actor),
      message: r(OT.message) ?? '',
      details: r(OT.errorDetails),
      causes: [],
    };
  }
  return record;
}

export async function readTask(store: Store, uri: string): Promise<{ record: TaskRecord; quads: RDF.Quad[] } | undefined> {
  const quads = await store.graph(uri);
  const record = recordFromQuads(uri, quads);
  return record && { record, quads };
}

/** The public view of a record: what TaskEngine hands to other modules. */
export function infoOf(t: TaskRecord): TaskInfo {
  return { uri: t.uri, creator: t.creator, owner: t.owner, status: t.status, percentageCompleted: t.percentageCompleted, resultUris: [...t.resultUris] };
}

/** The public triples of the tasks `uris`, in order: the RDF of a task list. */
export async function publicTaskGraphs(store: Store, uris: readonly string[]): Promise<RDF.Quad[]> {
  return (await Promise.all(uris.map((u) => store.graph(u)))).flatMap((quads) => publicQuads(quads));
}

/** Whose tasks to list: `owner` in the ACL graph `acl`. */
export interface TaskOwnerFilter {
  acl: string;
  owner: string;
}

/** Task URIs in order of creation (ids are time-ordered), optionally of one status and owner. */
export async function listTasks(store: Store, status: TaskStatus | undefined, limit: number, offset: number, owned?: TaskOwnerFilter): Promise<string[]> {
  const paging = { limit: { raw: limit }, offset: { raw: offset } };
  const by: Record<string, Bindable> = owned ? { acl: namedNode(owned.acl), owner: owned.owner } : {};
  const name = `task-list${owned ? '-owned' : ''}${status ? '-by-status' : ''}`;
  const rows = await store.select(name, status ? { status, ...paging, ...by } : { ...paging, ...by });
  return rows.map((r) => bound(r, 'task'));
}

/** Tasks to resume at start-up: Queued and Running ones. */
export async function unfinishedTasks(store: Store): Promise<string[]> {
  return (await store.select('task-unfinished')).map((r) => bound(r, 'task'));
}

/** Final tasks that ended before `before` (retention purge). */
export async function tasksEndedBefore(store: Store, before: Date): Promise<string[]> {
  return (await store.select('task-ended-before', { before: dateTime(before) })).map((r) => bound(r, 'task'));
}
