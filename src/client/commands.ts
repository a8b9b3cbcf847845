// The client's commands: each talks plain OpenTox 1.2 (SPEC §4), so they work against any
// service that follows the interface, and prints result URIs on stdout.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { serviceError } from './report.ts';
import { followTask, resultOf } from './task.ts';
import { countingStream, progressBar, type Bar } from './progress.ts';
import { request } from './http.ts';
import { printWarnings } from './warnings.ts';
import { headers, saveToken, type Session } from './session.ts';

/** Media type of a file by its extension (SPEC §2.2 chemical types, §2.1 RDF types). */
const BY_EXTENSION: Record<string, string> = {
  csv: 'text/csv', sdf: 'chemical/x-mdl-sdfile', sd: 'chemical/x-mdl-sdfile', mol: 'chemical/x-mdl-molfile',
  smi: 'chemical/x-daylight-smiles', rdf: 'application/rdf+xml', owl: 'application/rdf+xml', ttl: 'text/turtle',
  nt: 'application/n-triples', jsonld: 'application/ld+json', n3: 'text/n3', cml: 'chemical/x-cml',
};

/** --format names for `get`, and the media types they ask for. */
export const FORMATS: Record<string, string> = {
  csv: 'text/csv', sdf: 'chemical/x-mdl-sdfile', mol: 'chemical/x-mdl-molfile', smiles: 'chemical/x-daylight-smiles',
  inchi: 'chemical/x-inchi', rdf: 'application/rdf+xml', rdfxml: 'application/rdf+xml', ttl: 'text/turtle', turtle: 'text/turtle',
  nt: 'application/n-triples', jsonld: 'application/ld+json', n3: 'text/n3', uri: 'text/uri-list', uris: 'text/uri-list',
  png: 'image/png', svg: 'image/svg+xml', cml: 'chemical/x-cml', xyz: 'chemical/x-xyz', mol2: 'chemical/x-mol2', txt: 'text/plain',
};

const out = (line: string) => process.stdout.write(line + '\n');

/** At most `n` characters, so the bar keeps to one terminal line. */
const clip = (text: string, n = 48) => (text.length > n ? text.slice(0, n - 1) + '…' : text);

/**
 * The bar of a task: its title (its id until the title is known) and its percentage.
 * Started with the first progress a task reports, so a job answered at once draws none.
 */
function taskBar(bar = progressBar()) {
  let label: string | undefined;
  const progress = (percent: number, task: string, title?: string) => {
    const next = clip(title ?? label ?? `task ${task.replace(/\/+$/, '').split('/').pop()}`);
    if (label === undefined) bar.start(100, next);
    label = next;
    bar.update(Math.round(percent), label);
  };
  return { bar, progress };
}

/** Prints `uris` once the bar has ended its line: a result never shares the bar's line. */
async function printAfter(bar: Bar, results: Promise<string[]>): Promise<string[]> {
  let uris: string[];
  try {
    uris = await results;
  } finally {
    bar.stop();
  }
  for (const uri of uris) out(uri);
  return uris;
}

export async function upload(session: Session, file: string, options: { type?: string }): Promise<void> {
  const ext = path.extname(file).slice(1).toLowerCase();
  const type = options.type ?? BY_EXTENSION[ext];
  if (!type) throw new Error(`cannot tell the media type of ${file} from ".${ext}": give --type (e.g. text/csv)`);
  const data = readFileSync(file);
  const url = session.service + '/dataset';
  const { bar, progress } = taskBar();
  bar.start(data.length, 'upload', true);
  let res: Response;
  try {
    res = await request(url, {
      method: 'POST',
      headers: headers(session, { 'Content-Type': type, Accept: 'text/uri-list' }),
      body: countingStream(data, (sent) => bar.update(sent)),
      duplex: 'half',
    } as RequestInit);
  } finally {
    bar.stop();
  }
  const datasets = await printAfter(bar, resultOf(session, res, url, { progress }));
  for (const dataset of datasets) await printWarnings(session, dataset);
}

/** POST form fields to an algorithm, model or validation service, follow its task, print the result. */
export async function post(session: Session, target: string, fields: Array<[string, string]>): Promise<void> {
  const { bar, progress } = taskBar();
  const res = await request(target, { method: 'POST', headers: headers(session, { Accept: 'text/uri-list' }), body: new URLSearchParams(fields) });
  await printAfter(bar, resultOf(session, res, target, { progress }));
}

/** k=v pairs of --param, each split at its first "=". */
export function params(pairs: readonly string[]): Array<[string, string]> {
  return pairs.map((p) => {
    const i = p.indexOf('=');
    if (i <= 0) throw new Error(`--param ${JSON.stringify(p)} is not of the form name=value`);
    return [p.slice(0, i), p.slice(i + 1)];
  });
}

export async function get(session: Session, uri: string, options: { format?: string; output?: string }): Promise<void> {
  const type = options.format ? (FORMATS[options.format.toLowerCase()] ?? (options.format.includes('/') ? options.format : undefined)) : undefined;
  if (options.format && !type) throw new Error(`unknown --format ${options.format}: use one of ${Object.keys(FORMATS).join(', ')} or a media type`);
  const res = await request(uri, { headers: headers(session, type ? { Accept: type } : {}) });
  if (!res.ok) throw await serviceError(res, uri);
  const body = Buffer.from(await res.arrayBuffer());
  if (options.output) writeFileSync(options.output, body);
  else process.stdout.write(body);
}

export async function tasks(session: Session, status?: string): Promise<void> {
  const url = session.service + '/task' + (status ? `?query=${encodeURIComponent(status)}` : '');
  const res = await request(url, { headers: headers(session, { Accept: 'text/uri-list' }) });
  if (!res.ok) throw await serviceError(res, url);
  process.stdout.write(await res.text());
}

export async function wait(session: Session, task: string): Promise<void> {
  const { bar, progress } = taskBar();
  await printAfter(bar, followTask(session, task, { progress }));
}

/** OpenSSO-style login (POST {auth}/authenticate, answer token.id=...): saves the token. */
export async function login(session: Session, options: { user: string; password: string; auth?: string }): Promise<void> {
  const url = (options.auth ?? session.service + '/auth').replace(/\/+$/, '') + '/authenticate';
  const res = await request(url, { method: 'POST', body: new URLSearchParams({ username: options.user, password: options.password }) });
  if (!res.ok) throw await serviceError(res, url);
  const token = /^token\.id=(.+)$/m.exec(await res.text())?.[1]?.trim();
  if (!token) throw new Error(`${url} answered no token.id`);
  const file = saveToken(session.service, token);
  process.stderr.write(`logged in as ${options.user}; token saved in ${file}\n`);
}
