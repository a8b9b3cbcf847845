// What an upload skipped or changed (ot:warning on the dataset, "row 7: …"): printed on
// stderr after the dataset's URI, so a script reading stdout is not disturbed. Read from
// GET {dataset}/warnings where the service has it (text/plain, one a line), else from the
// dataset's metadata; a service with neither prints nothing.
import { parseRdf } from '../rdf/parse.ts';
import { OT } from '../rdf/vocab.ts';
import { request } from './http.ts';
import { headers, type Session } from './session.ts';

/** At most this many are printed; the rest are counted. */
const SHOWN = 20;

async function listed(session: Session, dataset: string): Promise<string[] | undefined> {
  const res = await request(`${dataset}/warnings`, { headers: headers(session, { Accept: 'text/plain' }) });
  const body = await res.text();
  // Another type is a default representation (SPEC §7.1), not the list asked for.
  if (!res.ok || !/^text\/plain\b/.test(res.headers.get('content-type') ?? '')) return undefined;
  return body.split(/\r?\n/).map((l) => l.trim()).filter(Boolean);
}

async function fromMetadata(session: Session, dataset: string): Promise<string[]> {
  const url = `${dataset}/metadata`;
  const res = await request(url, { headers: headers(session, { Accept: 'application/n-triples' }) });
  const body = await res.text();
  if (!res.ok) return [];
  const quads = await parseRdf(body, 'ntriples', url).catch(() => []);
  return quads.filter((q) => q.subject.value === dataset && q.predicate.equals(OT.warning)).map((q) => q.object.value);
}

export async function printWarnings(session: Session, dataset: string): Promise<void> {
  const warnings = (await listed(session, dataset)) ?? (await fromMetadata(session, dataset));
  if (warnings.length === 0) return;
  const lines = [`${dataset}: ${warnings.length} warning${warnings.length === 1 ? '' : 's'}`, ...warnings.slice(0, SHOWN).map((w) => `  ${w}`)];
  if (warnings.length > SHOWN) lines.push(`  … ${warnings.length - SHOWN} more: opentox get ${dataset}/metadata -F ttl`);
  process.stderr.write(lines.join('\n') + '\n');
}
