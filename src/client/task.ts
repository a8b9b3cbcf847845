// Following a task as SPEC §4.3 tells a client: poll the task URI with text/uri-list;
// 202 means running, 200 gives the result URI(s), 201 a further task to follow, any other
// status is the task's error report.
import { parseRdf } from '../rdf/parse.ts';
import { DC, OT } from '../rdf/vocab.ts';
import { request } from './http.ts';
import { serviceError } from './report.ts';
import { headers, type Session } from './session.ts';

export interface FollowOptions {
  /** Called with the task's percentageCompleted while it runs, and its dc:title when it has one. */
  progress?: (percent: number, task: string, title?: string) => void;
  intervalMs?: number;
}

/** ot:percentageCompleted and dc:title of a task, read from its RDF/XML (what every 1.2 service serves). */
async function stateOf(session: Session, task: string): Promise<{ percent?: number; title?: string }> {
  const res = await request(task, { headers: headers(session, { Accept: 'application/rdf+xml' }) });
  const text = await res.text();
  // The service's one RDF/XML reader, with its bounds on entities.
  const quads = await parseRdf(text, 'rdfxml', task).catch(() => undefined);
  // The task's node: its URI here, a blank node in the interface's examples (SPEC §2.4).
  const state = quads?.filter((q) => q.predicate.equals(OT.percentageCompleted)).at(-1);
  const title = state && quads?.find((q) => q.subject.equals(state.subject) && q.predicate.equals(DC.title))?.object.value;
  return { percent: state === undefined ? undefined : Number(state.object.value), title };
}

export async function followTask(session: Session, first: string, options: FollowOptions = {}): Promise<string[]> {
  let task = first;
  for (;;) {
    const res = await request(task, { headers: headers(session, { Accept: 'text/uri-list' }) });
    if (res.status === 202) {
      await res.arrayBuffer();
      if (options.progress) {
        const { percent, title } = await stateOf(session, task);
        if (percent !== undefined && Number.isFinite(percent)) options.progress(percent, task, title);
      }
      await new Promise((r) => setTimeout(r, options.intervalMs ?? 300));
      continue;
    }
    if (res.status === 201) {
      task = (await res.text()).trim().split(/\r?\n/)[0]!; // split gives at least one line
      continue;
    }
    if (res.status !== 200) throw await serviceError(res, task);
    options.progress?.(100, task);
    return (await res.text()).split(/\r?\n/).map((l) => l.trim()).filter(Boolean);
  }
}

/** The URI(s) an answer to a POST names: at once (200), or after its task (202, 201). */
export async function resultOf(session: Session, res: Response, url: string, options: FollowOptions = {}): Promise<string[]> {
  if (res.status >= 400) throw await serviceError(res, url);
  const uris = (await res.text()).split(/\r?\n/).map((l) => l.trim()).filter(Boolean);
  if (res.status === 202 || res.status === 201) return followTask(session, uris[0] ?? res.headers.get('location') ?? '', options);
  return uris;
}
