// Files a job hands from one process to another: an upload saved for its job, a model a
// job built and a later prediction loads. Embedded, they are files under DATA_DIR. In the
// remote mode API processes and workers share no disk (docs/engines.md: nothing shared but
// the engines), so each file is a graph of the store instead, named by its path under a
// service URN, holding its bytes as one base64 literal; a graph replace is atomic, so a
// reader sees the whole file or none.
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { DataFactory } from 'n3';
import type { Config } from '../config.ts';
import type { Store } from '../store/api.ts';
import { NotFound } from '../errors.ts';
import { SVC } from '../rdf/vocab.ts';

const { namedNode, quad, literal } = DataFactory;

type FileDeps = { config: Config; store: Store };

const PREFIX = `${SVC.ns}file/`;
const BYTES = SVC.term('fileBytes');

const inStore = (deps: FileDeps) => deps.store.kind === 'sparql';
const graphOf = (rel: string) => PREFIX + rel.split('/').map(encodeURIComponent).join('/');
/** The local path of `rel` (relative to DATA_DIR), in either mode: workers copy uploads there. */
export const localPath = (deps: FileDeps, rel: string) => path.join(deps.config.dataDir, rel);

export async function writeShared(deps: FileDeps, rel: string, data: Buffer | string): Promise<void> {
  const bytes = typeof data === 'string' ? Buffer.from(data) : data;
  if (inStore(deps)) {
    const g = graphOf(rel);
    await deps.store.replaceGraph(g, [quad(namedNode(g), BYTES, literal(bytes.toString('base64')))]);
    return;
  }
  const file = localPath(deps, rel);
  await fsp.mkdir(path.dirname(file), { recursive: true });
  const handle = await fsp.open(file + '.tmp', 'w');
  try {
    await handle.writeFile(bytes);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await fsp.rename(file + '.tmp', file);
}

export async function readShared(deps: FileDeps, rel: string): Promise<Buffer> {
  if (!inStore(deps)) return fsp.readFile(localPath(deps, rel));
  const g = graphOf(rel);
  const found = (await deps.store.match(namedNode(g), BYTES, null, g))[0];
  if (!found) throw new NotFound(`file ${rel} is missing from the store`);
  return Buffer.from(found.object.value, 'base64');
}

/** A local file holding `rel`, for code that reads a path (the upload readers in worker threads). */
export async function sharedAsLocal(deps: FileDeps, rel: string): Promise<string> {
  const file = localPath(deps, rel);
  if (inStore(deps)) {
    await fsp.mkdir(path.dirname(file), { recursive: true });
    await fsp.writeFile(file, await readShared(deps, rel));
  }
  return file;
}

export async function removeShared(deps: FileDeps, rel: string): Promise<void> {
  if (inStore(deps)) await deps.store.dropGraph(graphOf(rel));
  await fsp.rm(localPath(deps, rel), { force: true });
}
