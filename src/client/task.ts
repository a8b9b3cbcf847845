// Following a task as SPEC §4.3 tells a client: poll the task URI with text/uri-list;
// 202 means running, 200 gives the result URI(s), 201 a further task to follow, any other
// status is the task's error report.
import { parseRdf } from '../rdf/parse.ts';
import { OT } from '../rdf/vocab.ts';
import { serviceError } from './report.ts';
import { headers, type Session } from './session.ts';

export interface FollowOptions {
  /** Called with the task's percentageCompleted while it runs. */
  progress?: (percent: number, task: string) => void;
  intervalMs?: number;
}

/** ot:percentageCompleted of a task, read from its RDF/XML (what every 1.2 service serves). */
async function percentOf(session: Session, task: string): Promise<number | undefined> {
  const res = await fetch(task, { headers: headers(session, { Accept: 'application/rdf+xml' }) });
  const text = await res.text();
  // The service's one RDF/XML reader, with its bounds on entities.
  const quads = await parseRdf(text, 'rdfxml', task).catch(() => undefined);
  const percent = quads?.filter((q) => q.predicate.value === OT.percentageCompleted.value).at(-1)?.object.value;
  return percent === undefined ? undefined : Number(percent);
}

export async function followTask(session: Session, first: string, options: FollowOptions = {}): Promise<string[]> {
  let task = first;
  for (;;) {
    const res = await fetch(task, { headers: headers(session, { Accept: 'text/uri-list' }) });
    if (res.status === 202) {
      await res.arrayBuffer();
      if (options.progress) {
        const percent = await percentOf(session, task);
        if (percent !== undefined && Number.isFinite(percent)) options.progress(percent, task);
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
