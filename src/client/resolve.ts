// What a user types for an algorithm or a model: a URI, or a name (`knn`) or id (`3`)
// looked up in the service's lists (GET /algorithm, GET /model, SPEC §4.1), so that
// `opentox apply knn …` works against any 1.2 service.
import { request } from './http.ts';
import { serviceError } from './report.ts';
import { headers, type Session } from './session.ts';

const isUri = (s: string) => /^[a-z][a-z0-9+.-]*:\/\//i.test(s);
const lastSegment = (uri: string) => decodeURIComponent(new URL(uri).pathname.replace(/\/+$/, '').split('/').pop() ?? '');

async function list(session: Session, url: string): Promise<string[]> {
  const res = await request(url, { headers: headers(session, { Accept: 'text/uri-list' }) });
  if (!res.ok) throw await serviceError(res, url);
  return (await res.text()).split(/\r?\n/).map((l) => l.trim()).filter(Boolean);
}

/** The URI in `session`'s `/{kind}` list whose last path segment is `name` (case-insensitive), or `name` itself when it is a URI. */
export async function resolveResource(session: Session, kind: 'algorithm' | 'model', name: string): Promise<string> {
  if (isUri(name)) return name;
  const url = `${session.service}/${kind}`;
  const uris = await list(session, url);
  const wanted = name.toLowerCase();
  const found = uris.find((u) => lastSegment(u).toLowerCase() === wanted);
  if (found) return found;
  const near = uris.map(lastSegment).filter((n) => n.toLowerCase().includes(wanted) || wanted.includes(n.toLowerCase()));
  const hint = near.length > 0 ? `; did you mean ${near.slice(0, 5).join(', ')}?` : `; the list has ${uris.length} entries (opentox get ${url} -F uri)`;
  throw new Error(`no ${kind} named "${name}" in ${url}${hint}`);
}
