// Files a job hands from one process to another: an upload saved for its job, a model a
// job built and a later prediction loads. Embedded, they are files under DATA_DIR. In the
// remote mode API processes and workers share no disk (docs/engines.md: nothing shared but
// the engines), so each file is a graph of the store instead, named by its path under a
// service URN, holding its bytes as base64 literals of PART_BYTES each (part i the subject
// <graph#i>, so a reader asks for one part by its subject) and, written last, the number of
// parts: a reader sees the whole file or none. Parts, because Virtuoso refuses
// an update request longer than 10 MB ("string session is longer than 10Mb"): a 20 MB
// upload goes as several requests (docs/engines.md).
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { DataFactory } from 'n3';
import type { Config } from '../config.ts';
import { bound, type Store } from '../store/api.ts';
import { NotFound } from '../errors.ts';
import { SVC } from '../rdf/vocab.ts';
import { mkdirPrivate, openPrivate, PRIVATE_FILE } from '../files/privateFiles.ts';

const { namedNode, quad, literal } = DataFactory;
const XSD_INTEGER = namedNode('http://www.w3.org/2001/XMLSchema#integer');

type FileDeps = { config: Config; store: Store };

const PREFIX = `${SVC.ns}file/`;
/** One literal of the whole file: how files were kept before they were split into parts. */
const BYTES = SVC.term('fileBytes');
/** `"<index> <base64>"`, one per part. */
const PART = SVC.term('filePart');
/** The subject of part `i` of graph `g`; files written before parts had subjects used `g` itself. */
const partOf = (g: string, i: number) => namedNode(`${g}#${i}`);
/** The number of parts, written after every part: its absence means the file is incomplete. */
const PARTS = SVC.term('fileParts');
/**
 * Raw bytes per part (256 KiB of base64) and parts per update request (4 MiB of base64, far
 * below 10 MB). Virtuoso parses a long literal slowly: 12 MiB as 4 MiB literals took 60 s
 * to write here, as 256 KiB ones 4.4 s.
 */
const PART_BYTES = 192 * 1024;
const PARTS_PER_REQUEST = 16;

const inStore = (deps: FileDeps) => deps.store.capabilities.filesInStore;
/** The graph holding file `rel` in the remote mode. */
export const graphOf = (rel: string) => PREFIX + rel.split('/').map(encodeURIComponent).join('/');
/** The local path of `rel` (relative to DATA_DIR), in either mode: workers copy uploads there. */
export const localPath = (deps: FileDeps, rel: string) => path.join(deps.config.dataDir, rel);

export async function writeShared(deps: FileDeps, rel: string, data: Buffer | string): Promise<void> {
  const bytes = typeof data === 'string' ? Buffer.from(data) : data;
  if (inStore(deps)) {
    const g = namedNode(graphOf(rel));
    const parts = Math.max(1, Math.ceil(bytes.length / PART_BYTES));
    await deps.store.dropGraph(g.value);
    for (let first = 0; first < parts; first += PARTS_PER_REQUEST) {
      const quads = [];
      for (let i = first; i < Math.min(parts, first + PARTS_PER_REQUEST); i++) {
        quads.push(quad(partOf(g.value, i), PART, literal(`${i} ${bytes.subarray(i * PART_BYTES, (i + 1) * PART_BYTES).toString('base64')}`)));
      }
      await deps.store.addToGraph(g.value, quads);
    }
    await deps.store.addToGraph(g.value, [quad(g, PARTS, literal(String(parts), XSD_INTEGER))]);
    return;
  }
  const file = localPath(deps, rel);
  await mkdirPrivate(path.dirname(file));
  const handle = await openPrivate(file + '.tmp', 'w');
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
  const triples = await deps.store.match(null, null, null, g);
  const whole = triples.find((q) => q.predicate.equals(BYTES));
  if (whole) return Buffer.from(whole.object.value, 'base64');
  const count = triples.find((q) => q.predicate.equals(PARTS));
  if (!count) throw new NotFound(`file ${rel} is missing from the store, or not yet written whole`);
  const parts = new Array<Buffer | undefined>(Number(count.object.value));
  for (const q of triples) {
    if (!q.predicate.equals(PART)) continue;
    const space = q.object.value.indexOf(' ');
    parts[Number(q.object.value.slice(0, space))] = Buffer.from(q.object.value.slice(space + 1), 'base64');
  }
  const missing = parts.findIndex((p) => p === undefined);
  if (missing >= 0) throw new NotFound(`file ${rel} in the store lacks part ${missing} of ${parts.length}`);
  return Buffer.concat(parts as Buffer[]);
}

/**
 * A local file holding `rel`, for code that reads a path (the upload readers in worker
 * threads). In the remote mode its parts are read from the store and written one at a time,
 * never the whole file in memory.
 */
export async function sharedAsLocal(deps: FileDeps, rel: string): Promise<string> {
  const file = localPath(deps, rel);
  if (!inStore(deps)) return file;
  const g = namedNode(graphOf(rel));
  const count = (await deps.store.match(g, PARTS, null, g.value))[0];
  // Files kept whole, from before parts: one literal.
  if (!count) {
    await mkdirPrivate(path.dirname(file));
    await fsp.writeFile(file, await readShared(deps, rel), { mode: PRIVATE_FILE });
    return file;
  }
  await mkdirPrivate(path.dirname(file));
  const handle = await openPrivate(file, 'w');
  try {
    for (let i = 0; i < Number(count.object.value); i++) {
      const text = (await deps.store.match(partOf(g.value, i), PART, null, g.value))[0]?.object.value ?? (await olderPart(deps, g, i));
      if (text === undefined) throw new NotFound(`file ${rel} in the store lacks part ${i} of ${count.object.value}`);
      await handle.write(Buffer.from(text.slice(text.indexOf(' ') + 1), 'base64'));
    }
  } finally {
    await handle.close();
  }
  return file;
}

/** Part `i` of a file written when every part had the graph as its subject, found by its text. */
async function olderPart(deps: FileDeps, g: ReturnType<typeof namedNode>, i: number): Promise<string | undefined> {
  const row = (await deps.store.select('file-part', { graph: g, prefix: `${i} ` }))[0];
  return row ? bound(row, 'part') : undefined;
}

/** The files of the store (remote mode) under directory `dir` of DATA_DIR, as paths relative to it. */
export async function sharedFilesUnder(deps: Pick<FileDeps, 'store'>, dir: string): Promise<string[]> {
  const rows = await deps.store.select('graphs-with-prefix', { prefix: `${graphOf(dir)}/` });
  return rows.map((r) => bound(r, 'g').slice(PREFIX.length).split('/').map(decodeURIComponent).join('/'));
}

export async function removeShared(deps: FileDeps, rel: string): Promise<void> {
  if (inStore(deps)) await deps.store.dropGraph(graphOf(rel));
  await fsp.rm(localPath(deps, rel), { force: true });
}

/**
 * Makes the file `rel`, already written under DATA_DIR, shared: in the remote mode its bytes
 * go to the store as writeShared writes them, read from the file a part at a time, and the
 * local file goes (a process that needs it reads its own copy: sharedAsLocal).
 */
export async function shareFile(deps: FileDeps, rel: string): Promise<void> {
  if (!inStore(deps)) return;
  const g = namedNode(graphOf(rel));
  await deps.store.dropGraph(g.value);
  const handle = await fsp.open(localPath(deps, rel), 'r');
  let parts = 0;
  try {
    for (let last = false; !last;) {
      const quads = [];
      while (!last && quads.length < PARTS_PER_REQUEST) {
        const { bytesRead, buffer } = await handle.read(Buffer.alloc(PART_BYTES), 0, PART_BYTES, null);
        last = bytesRead < PART_BYTES;
        if (bytesRead > 0 || parts === 0) quads.push(quad(partOf(g.value, parts), PART, literal(`${parts++} ${buffer.subarray(0, bytesRead).toString('base64')}`)));
      }
      if (quads.length) await deps.store.addToGraph(g.value, quads);
    }
  } finally {
    await handle.close();
  }
  await deps.store.addToGraph(g.value, [quad(g, PARTS, literal(String(parts), XSD_INTEGER))]);
  await fsp.rm(localPath(deps, rel), { force: true });
}
