// The feature resource: created from RDF or by algorithms and dataset
// uploads, reused when the same source makes the same feature again.
import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'n3';
import type { Deps } from '../deps.ts';
import { BadRequest, InternalError, NotFound } from '../errors.ts';
import { ERR, OT, RDF as RDFNS } from '../rdf/vocab.ts';
import { isValidIri } from '../store/binder.ts';
import { mintUri } from '../ids/mint.ts';
import type { Paging as Page } from '../http/paging.ts';
import { featureReferrers, refuseIfReferenced } from '../integrity/referrers.ts';
import { featureOfQuads, featureQuads, featureSubjects, TYPE_CLASS, typeOfClasses, type FeatureInfo, type FeatureSpec } from './featureModel.ts';
import { bound } from '../store/api.ts';
import type { WriteOp } from '../store/writeOps.ts';
import { readablePage } from '../auth/readAccess.ts';

const { quad, namedNode } = DataFactory;

export type { FeatureInfo, FeatureSpec, FeatureType } from './featureModel.ts';

/**
 * URI of the feature `spec` describes: the existing one when its source already made a
 * feature of this title and type, else a new one. Use this from algorithms and models.
 */
export async function ensureFeature(deps: Deps, spec: FeatureSpec): Promise<string> {
  const [uri] = await ensureFeatures(deps, [spec]);
  if (uri === undefined) throw new InternalError(`no feature URI for "${spec.title}"`);
  return uri;
}

/** ensureFeature for many specs, writing every new feature in one commit. */
export async function ensureFeatures(deps: Deps, specs: readonly FeatureSpec[]): Promise<string[]> {
  const { uris, ops } = await planFeatures(deps, specs);
  if (ops.length > 0) await deps.store.commit(ops);
  return uris;
}

/** What ensureFeatures writes, not yet written: the URI and record of each spec's feature, and the new features' graphs. */
export interface FeaturePlan {
  uris: string[];
  /** The record of each feature made here (a reused one's is read when needed). */
  made: Map<string, FeatureInfo>;
  ops: WriteOp[];
}

/**
 * ensureFeatures without its commit, for a caller that commits the new features with what
 * uses them. `freshSources`: sources minted for this write, which cannot have made a
 * feature yet (nothing is looked up for them).
 */
export async function planFeatures(deps: Deps, specs: readonly FeatureSpec[], freshSources: ReadonlySet<string> = new Set()): Promise<FeaturePlan> {
  const uris: string[] = [];
  const ops: WriteOp[] = [];
  const made = new Map<string, FeatureInfo>();
  const minted = new Map<string, string>();
  const lookedUp = (spec: FeatureSpec) => spec.source !== undefined && isValidIri(spec.source) && !freshSources.has(spec.source);
  const bySource = await madeBySources(deps, specs.filter(lookedUp));
  // The other specs' features are looked up at once: the waits overlap.
  const found = await Promise.all(specs.map((spec) => (lookedUp(spec) && !bySource.read.has(spec.source!) ? findBySource(deps, spec) : Promise.resolve(undefined))));
  for (const [i, spec] of specs.entries()) {
    const key = JSON.stringify([spec.source, spec.title, spec.type]);
    const existing = minted.get(key) ?? bySource.found.get(key) ?? found[i];
    if (existing) {
      uris.push(existing);
      continue;
    }
    const uri = await mintUri(deps, 'feature');
    minted.set(key, uri);
    const quads = featureQuads(uri, spec);
    ops.push({ op: 'replace', graph: uri, quads });
    made.set(uri, infoOf(uri, quads)!); // featureQuads types it ot:Feature
    uris.push(uri);
  }
  return { uris, ops, made };
}

/** Specs of one source at least this many: what it made already is read in one query, not one per spec. */
const MANY_OF_ONE_SOURCE = 50;

/** The features the sources of many specs made, by the key ensureFeatures uses; `read`: the sources so read. */
async function madeBySources(deps: Deps, specs: readonly FeatureSpec[]): Promise<{ read: Set<string>; found: Map<string, string> }> {
  const counts = new Map<string, number>();
  for (const s of specs) if (s.source && isValidIri(s.source)) counts.set(s.source, (counts.get(s.source) ?? 0) + 1);
  const read = new Set<string>();
  const found = new Map<string, string>();
  for (const [source, n] of counts) {
    if (n < MANY_OF_ONE_SOURCE) continue;
    read.add(source);
    // Shortest URI first, as feature-by-source.rq chooses.
    for (const r of await deps.store.select('features-by-source', { source: namedNode(source) })) {
      const type = typeOfClasses([bound(r, 'type')]);
      const key = JSON.stringify([source, bound(r, 'title'), type]);
      if (type && !found.has(key)) found.set(key, bound(r, 'f'));
    }
  }
  return { read, found };
}

async function findBySource(deps: Deps, spec: FeatureSpec): Promise<string | undefined> {
  const rows = await deps.store.select('feature-by-source', { type: TYPE_CLASS[spec.type], source: namedNode(spec.source!), title: spec.title });
  const [row] = rows;
  return row === undefined ? undefined : bound(row, 'f');
}

/** The feature described in an RDF body, or 400 NotAFeatureRepresentation. */
export function specOfRdf(quads: readonly RDF.Quad[]): { spec: FeatureSpec; subject: RDF.Term } {
  const subjects = featureSubjects(quads);
  const [subject] = subjects;
  if (subject === undefined || subjects.length !== 1) {
    throw new BadRequest(subjects.length === 0 ? 'the RDF holds no ot:Feature' : `the RDF holds ${subjects.length} features; send one`, {
      code: ERR.NotAFeatureRepresentation,
    });
  }
  const read = featureOfQuads(quads, subject);
  return { spec: { ...read, type: read.type ?? 'string' }, subject };
}

/** Triples of the feature to store: its record plus any further literal or IRI statements. */
function storedQuads(uri: string, quads: readonly RDF.Quad[], subject: RDF.Term, spec: FeatureSpec): RDF.Quad[] {
  const base = featureQuads(uri, spec);
  const known = new Set(base.map((q) => q.predicate.value));
  known.add(RDFNS.type.value);
  const extra = quads
    .filter((q) => q.subject.equals(subject) && !known.has(q.predicate.value) && q.object.termType !== 'BlankNode')
    .map((q) => quad(namedNode(uri), q.predicate as RDF.Quad_Predicate, q.object as RDF.Quad_Object));
  return [...base, ...extra];
}

/** POST /feature: stores the feature of an RDF body under a new URI. */
export async function createFeature(deps: Deps, quads: readonly RDF.Quad[]): Promise<string> {
  const { spec, subject } = specOfRdf(quads);
  const uri = await mintUri(deps, 'feature');
  await deps.store.replaceGraph(uri, storedQuads(uri, quads, subject, spec));
  return uri;
}

/** What a dataset column or a model variable means: a change renames or retypes it for every referrer. */
const MEANING = ['title', 'type', 'units'] as const;

/**
 * PUT /feature/{id}: replaces the feature with the one in the body. A change of title, type
 * or units of a feature datasets or models use answers 409 unless forced (docs/integrity.md).
 */
export async function replaceFeature(deps: Deps, uri: string, quads: readonly RDF.Quad[], force = false): Promise<void> {
  await requireFeature(deps, uri);
  const { spec, subject } = specOfRdf(quads);
  const old = await readFeature(deps, uri);
  const changed = MEANING.filter((k) => (old?.[k] ?? '') !== (spec[k] ?? ''));
  if (changed.length > 0) refuseIfReferenced(uri, `change the ${changed.join(', ')} of`, await featureReferrers(deps, uri), force);
  await deps.store.replaceGraph(uri, storedQuads(uri, quads, subject, spec));
}

/** DELETE /feature/{id}: 409 while datasets or models use it, unless forced. */
export async function deleteFeature(deps: Deps, uri: string, force = false): Promise<void> {
  await requireFeature(deps, uri);
  refuseIfReferenced(uri, 'delete', await featureReferrers(deps, uri), force);
  await deps.store.dropGraph(uri);
}

export async function featureGraph(deps: Deps, uri: string): Promise<RDF.Quad[]> {
  await requireFeature(deps, uri);
  return deps.store.graph(uri);
}

/** The graphs of the features `uris`, in order: the RDF of a feature list. */
export async function featureGraphs(deps: Deps, uris: readonly string[]): Promise<RDF.Quad[]> {
  return (await Promise.all(uris.map((u) => deps.store.graph(u)))).flat();
}

async function requireFeature(deps: Deps, uri: string): Promise<void> {
  if ((await deps.store.match(namedNode(uri), RDFNS.type, OT.Feature, uri)).length === 0) throw new NotFound(`feature ${uri} not found`);
}

/** A local feature's record, or undefined when it is not stored here. */
export async function readFeature(deps: Pick<Deps, 'store'>, uri: string): Promise<FeatureInfo | undefined> {
  return infoOf(uri, await deps.store.graph(uri));
}

/** The record of feature `uri` in its graph's `quads`; undefined when they do not type it ot:Feature. */
function infoOf(uri: string, quads: readonly RDF.Quad[]): FeatureInfo | undefined {
  if (quads.length === 0) return undefined;
  const subject = namedNode(uri);
  const classes = quads.filter((q) => q.subject.equals(subject) && q.predicate.equals(RDFNS.type)).map((q) => q.object.value);
  if (!classes.includes(OT.Feature.value)) return undefined;
  const read = featureOfQuads(quads, subject);
  return { ...read, type: read.type ?? typeOfClasses(classes) ?? 'string' };
}

/** Reads readFeatures keeps in flight: their waits overlap, and other clients' reads still go between. */
const READS_AT_ONCE = 8;

/** readFeature of each of `uris`, in order. */
export async function readFeatures(deps: Pick<Deps, 'store'>, uris: readonly string[]): Promise<Array<FeatureInfo | undefined>> {
  const out = new Array<FeatureInfo | undefined>(uris.length);
  let next = 0;
  const reader = async () => {
    for (let i = next++; i < uris.length; i = next++) out[i] = await readFeature(deps, uris[i]!);
  };
  await Promise.all(Array.from({ length: Math.min(READS_AT_ONCE, uris.length) }, reader));
  return out;
}

/** One page of feature URIs (and whether more follow), optionally only owl:sameAs `sameas`. */
export async function listFeatures(deps: Deps, page: Page, sameas?: string, keep?: (uri: string) => Promise<boolean>): Promise<{ uris: string[]; more: boolean }> {
  return readablePage(page, async (limit, offset) => {
    const bounds = { limit: { raw: limit }, offset: { raw: offset } };
    const rows = await (sameas === undefined ? deps.store.select('feature-list', bounds) : deps.store.select('feature-list-sameas', { ...bounds, sameas }));
    return rows.map((r) => bound(r, 'f'));
  }, keep);
}
