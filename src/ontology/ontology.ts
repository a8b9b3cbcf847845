// Ontologies: the built-in ones (API terms, algorithm types, error codes)
// loaded from ontology/*.ttl at every start, and those an ontology maintainer uploads. Each is
// a named graph `{base}/ontology/{id}`; the catalogue graph `{base}/ontology` describes them.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as RDF from '@rdfjs/types';
import { DataFactory } from 'n3';
import type { Deps } from '../deps.ts';
import { uriOf } from '../deps.ts';
import { bound, type Store, type WriteOp } from '../store/api.ts';
import { BadRequest, Forbidden, NotFound } from '../errors.ts';
import { fetchPage, type Paging } from '../http/paging.ts';
import { parseRdf } from '../rdf/parse.ts';
import { DC, ERR, OT, OWL, RDF as RDFNS, RDFS, VOID, XSD } from '../rdf/vocab.ts';

const { quad, namedNode, literal } = DataFactory;

export const ONTOLOGY_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../ontology');

/** Shipped with the service; replaced at every start so that upgrades take effect. */
export const BUILT_IN_ONTOLOGIES: ReadonlyArray<{ id: string; file: string; title: string }> = [
  { id: 'opentox', file: 'opentox.ttl', title: 'OpenTox API terms' },
  { id: 'algorithmTypes', file: 'algorithmTypes.ttl', title: 'OpenTox algorithm types' },
  { id: 'errors', file: 'errors.ttl', title: 'OpenTox error codes' },
  { id: 'service', file: 'service.ttl', title: 'Terms of this service' },
];

const BUILT_IN = 'built-in';
const UPLOADED = 'uploaded';
const ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

export interface OntologyEntry {
  uri: string;
  title: string;
  builtIn: boolean;
  date?: string;
  triples: number;
}

export const catalogueUri = (deps: Pick<Deps, 'config'>): string => uriOf(deps.config, '/ontology');
export const ontologyUri = (deps: Pick<Deps, 'config'>, id: string): string => uriOf(deps.config, `/ontology/${id}`);

function checkId(id: string): string {
  if (!ID.test(id)) throw new NotFound(`no ontology "${id.slice(0, 100)}": ids are 1-100 letters, digits, ".", "_" or "-"`);
  return id;
}

const builtInIds = new Set(BUILT_IN_ONTOLOGIES.map((o) => o.id));

/** Catalogue triples of one ontology graph. */
function entryQuads(uri: string, title: string, source: string): RDF.Quad[] {
  const g = namedNode(uri);
  return [
    quad(g, RDFNS.type, OT.Ontology),
    quad(g, DC.title, literal(title)),
    quad(g, DC.source, literal(source)),
    quad(g, DC.date, literal(new Date().toISOString(), XSD.dateTime)),
  ];
}

/** Ops that replace graph `uri` and its catalogue entry atomically. */
async function writeOps(deps: Deps, uri: string, quads: readonly RDF.Quad[], title: string, source: string): Promise<WriteOp[]> {
  const catalogue = catalogueUri(deps);
  const old = await deps.store.match(namedNode(uri), null, null, catalogue);
  return [
    { op: 'replace', graph: uri, quads },
    { op: 'remove', graph: catalogue, quads: old },
    { op: 'add', graph: catalogue, quads: entryQuads(uri, title, source) },
  ];
}

const tripleKey = (q: RDF.Quad) => `${q.subject.termType}:${q.subject.value} ${q.predicate.value} ${q.object.termType}:${q.object.value}:${q.object.termType === 'Literal' ? `${q.object.language}|${q.object.datatype.value}` : ''}`;

function sameTriples(a: readonly RDF.Quad[], b: readonly RDF.Quad[]): boolean {
  if (a.length !== b.length || a.some((q) => q.subject.termType === 'BlankNode' || q.object.termType === 'BlankNode')) return false;
  const keys = new Set(a.map(tripleKey));
  return b.every((q) => keys.has(tripleKey(q)));
}

/** Boot step: (re)loads ontology/*.ttl into their graphs, writing only what changed. */
export async function loadBuiltInOntologies(deps: Deps): Promise<void> {
  const ops: WriteOp[] = [];
  for (const { id, file, title } of BUILT_IN_ONTOLOGIES) {
    const uri = ontologyUri(deps, id);
    const quads = await parseRdf(readFileSync(path.join(ONTOLOGY_DIR, file), 'utf8'), 'turtle', uri);
    const listed = (await deps.store.match(namedNode(uri), null, null, catalogueUri(deps))).length > 0;
    if (listed && sameTriples(quads, await deps.store.graph(uri))) continue;
    ops.push(...(await writeOps(deps, uri, quads, title, BUILT_IN)));
  }
  if (ops.length) await deps.store.commit(ops);
}

/** One page of the catalogue, in URI order, with the total. */
export async function listOntologies(deps: Deps, paging: Paging): Promise<{ entries: OntologyEntry[]; hasMore: boolean; total: number }> {
  const catalogue = namedNode(catalogueUri(deps));
  const { items, hasMore } = await fetchPage(paging, (limit, offset) =>
    deps.store.select('ontology-list', { catalogue, limit: { raw: limit }, offset: { raw: offset } }));
  const total = Number((await deps.store.select('ontology-count', { catalogue }))[0]?.n?.value ?? 0);
  const entries = items.map((r) => ({
    uri: bound(r, 'g'),
    title: bound(r, 'title'),
    builtIn: bound(r, 'source') === BUILT_IN,
    date: r.date?.value,
    triples: Number(bound(r, 'triples')),
  }));
  return { entries, hasMore, total };
}

/** RDF of a catalogue page: each graph with its title, date and triple count. */
export function catalogueQuads(entries: readonly OntologyEntry[]): RDF.Quad[] {
  return entries.flatMap((e) => {
    const g = namedNode(e.uri);
    const out = [
      quad(g, RDFNS.type, OT.Ontology),
      quad(g, DC.title, literal(e.title)),
      quad(g, DC.source, literal(e.builtIn ? BUILT_IN : UPLOADED)),
      quad(g, VOID.triples, literal(String(e.triples), XSD.integer)),
    ];
    if (e.date) out.push(quad(g, DC.date, literal(e.date, XSD.dateTime)));
    return out;
  });
}

async function requireListed(deps: Deps, id: string): Promise<string> {
  const uri = ontologyUri(deps, checkId(id));
  if ((await deps.store.match(namedNode(uri), RDFNS.type, OT.Ontology, catalogueUri(deps))).length === 0) {
    throw new NotFound(`no ontology ${uri}`);
  }
  return uri;
}

/** The triples of ontology `id`. */
export async function ontologyTriples(deps: Deps, id: string): Promise<RDF.Quad[]> {
  return deps.store.graph(await requireListed(deps, id));
}

/** A title for an uploaded ontology: given, else its owl:Ontology's dc:title, rdfs:label or rdfs:comment. */
function titleOf(quads: readonly RDF.Quad[], given: string | undefined, fallback: string): string {
  if (given?.trim()) return given.trim();
  const heads = new Set(quads.filter((q) => q.predicate.equals(RDFNS.type) && q.object.equals(OWL.Ontology)).map((q) => q.subject.value));
  for (const p of [DC.title, RDFS.label, RDFS.comment]) {
    const named = quads.find((q) => heads.has(q.subject.value) && q.predicate.equals(p) && q.object.termType === 'Literal');
    if (named) return named.object.value;
  }
  return fallback;
}

export interface OntologyUpload {
  /** Parses the upload against the new graph's URI as base (the route knows the body's syntax). */
  parse: (baseIri: string) => Promise<RDF.Quad[]>;
  title?: string;
  filename?: string;
}

async function parseUpload(uri: string, upload: OntologyUpload): Promise<RDF.Quad[]> {
  const quads = await upload.parse(uri);
  if (quads.length === 0) throw new BadRequest('the ontology holds no triples', { code: ERR.BadRDFContent });
  return quads;
}

/** Loads an uploaded ontology into a new graph; returns its URI. */
export async function createOntology(deps: Deps, upload: OntologyUpload): Promise<string> {
  const id = randomBytes(6).toString('hex');
  const uri = ontologyUri(deps, id);
  const quads = await parseUpload(uri, upload);
  await deps.store.commit(await writeOps(deps, uri, quads, titleOf(quads, upload.title, upload.filename ?? `ontology ${id}`), UPLOADED));
  return uri;
}

function refuseBuiltIn(deps: Deps, id: string, verb: string): void {
  // 403: the request is understood but these graphs are the service's own; they are
  // rewritten from ontology/*.ttl at every start, so a change would not last anyway.
  if (builtInIds.has(id)) throw new Forbidden(`cannot ${verb} the built-in ontology ${ontologyUri(deps, id)}`, {
    details: 'Built-in ontologies are reloaded from the service\'s ontology/ folder at every start. POST your own ontology to /ontology instead.',
  });
}

/** Replaces (or creates, under a client-chosen id) an uploaded ontology. */
export async function replaceOntology(deps: Deps, id: string, upload: OntologyUpload): Promise<{ uri: string; created: boolean }> {
  checkId(id);
  refuseBuiltIn(deps, id, 'replace');
  const uri = ontologyUri(deps, id);
  const created = (await deps.store.match(namedNode(uri), null, null, catalogueUri(deps))).length === 0;
  const quads = await parseUpload(uri, upload);
  await deps.store.commit(await writeOps(deps, uri, quads, titleOf(quads, upload.title, upload.filename ?? `ontology ${id}`), UPLOADED));
  return { uri, created };
}

export async function deleteOntology(deps: Deps, id: string): Promise<void> {
  checkId(id);
  refuseBuiltIn(deps, id, 'delete');
  const uri = await requireListed(deps, id);
  const entry = await deps.store.match(namedNode(uri), null, null, catalogueUri(deps));
  await deps.store.commit([{ op: 'drop', graph: uri }, { op: 'remove', graph: catalogueUri(deps), quads: entry }]);
}

/**
 * `classIri` and all its subclasses, transitively across every graph (rdfs:subClassOf*), in
 * IRI order: what "algorithms of type X" means once a maintainer has POSTed new subtypes.
 */
export async function subClassesOf(store: Store, classIri: string): Promise<string[]> {
  return (await store.select('ontology-subclasses', { class: namedNode(classIri) }, { union: true })).map((r) => bound(r, 'c'));
}
