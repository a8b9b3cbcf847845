// The catalogue: every algorithm the service offers, by id (DESIGN: src/algorithms); the
// catalogue as the store holds it (SPEC §4.1): lists filtered by owl:sameAs or by type with its
// subclasses (the descriptions are graphs, loadAlgorithms, so ?type= runs in the store) and the
// RDF that describes each; and parameterised URIs (SPEC §2.1 rules 1-6). A run with specific
// parameters uses a child URI {algorithm}/{hash} whose graph holds the exact values; the hash
// is over the complete set of values (defaults included), so an identical set reuses its URI
// (rule 4).
import { createHash } from 'node:crypto';
import { DataFactory } from 'n3';
import type { Quad } from '@rdfjs/types';
import { NotFound } from '../errors.ts';
import { fetchPage, type Paging } from '../http/paging.ts';
import { DC } from '../rdf/vocab.ts';
import { checkIri } from '../store/binder.ts';
import type { Deps } from '../deps.ts';
import { uriOf } from '../deps.ts';
import { bound } from '../store/api.ts';
import { algorithmQuads, type DescribeOptions } from './describe.ts';
import { formatParam, parseParam, type ParamValues } from './params.ts';
import type { AlgorithmDef } from './types.ts';
import { physchem } from './descriptors/physchem.ts';
import { oclProperties } from './descriptors/oclProperties.ts';
import { smartsMatch } from './descriptors/smartsMatch.ts';
import { singleDescriptors } from './descriptors/single.ts';
import { frequentMining, supervisedMining } from './mining/frequent.ts';
import { knn, randomForest, linearRegression, logisticRegression } from './learning/algorithms.ts';
import { applicabilityDomain } from './learning/domain.ts';
import { varianceFilter, correlationFilter, topK } from './preprocessing/featureSelection.ts';
import { standardisation, removeDuplicates, removeMissing } from './preprocessing/cleanup.ts';
import { normalization } from './preprocessing/normalization.ts';
import { generation3d } from './preprocessing/generation3d.ts';

export const ALGORITHMS: readonly AlgorithmDef[] = [
  physchem, oclProperties, smartsMatch, ...singleDescriptors,
  frequentMining, supervisedMining,
  knn, randomForest, linearRegression, logisticRegression, applicabilityDomain,
  varianceFilter, correlationFilter, topK,
  standardisation, removeDuplicates, removeMissing, normalization, generation3d,
];

const byId = new Map(ALGORITHMS.map((a) => [a.id, a]));

export function algorithmById(id: string): AlgorithmDef | undefined {
  return byId.get(id);
}

export const HASH = /^[0-9a-f]{16}$/;

export const algorithmUri = (deps: Pick<Deps, 'config'>, id: string): string => uriOf(deps.config, `/algorithm/${id}`);

export function parameterHash(values: ParamValues): string {
  const canonical = Object.keys(values).sort().map((k) => `${k}=${formatParam(values[k]!)}`).join('\n');
  return createHash('sha256').update(canonical).digest('hex').slice(0, 16);
}

/** The child URI for `values`, created (described in the store) on first use. */
export async function ensureParameterised(deps: Deps, def: AlgorithmDef, values: ParamValues): Promise<string> {
  const parent = algorithmUri(deps, def.id);
  const uri = `${parent}/${parameterHash(values)}`;
  if (!(await deps.store.hasGraph(uri))) {
    await deps.store.replaceGraph(uri, algorithmQuads(def, uri, { values, parent, date: new Date().toISOString() }));
  }
  return uri;
}

/** The exact values a parameterised algorithm holds (rule 5: a run repeats them). */
export async function storedValues(deps: Deps, def: AlgorithmDef, uri: string): Promise<ParamValues> {
  const out: ParamValues = {};
  for (const row of await deps.store.select('algorithm-param-values', { algorithm: { iris: [uri] } })) {
    const name = bound(row, 'name');
    const value = bound(row, 'value');
    const p = def.params.find((x) => x.name === name);
    if (!p || value === '') continue;
    out[p.name] = parseParam(p, p.type === 'list' ? value.split('\n') : [value]);
  }
  return out;
}

const { namedNode } = DataFactory;

export interface AlgorithmFilter {
  sameas?: string;
  /** A class IRI (prefixed names already expanded). */
  type?: string;
}

/**
 * One page of generic algorithm URIs, in URI order. SPEC §7.1: 404 when no algorithm has the
 * owl:sameAs asked for; a type filter with no match is an empty list, as /task?query= answers.
 */
export async function listAlgorithms(deps: Deps, paging: Paging, filter: AlgorithmFilter): Promise<{ items: string[]; hasMore: boolean }> {
  const { sameas, type } = filter;
  const page = await fetchPage(paging, async (limit, offset) => {
    const bounds = { limit: { raw: limit }, offset: { raw: offset } };
    // The type hierarchy may span graphs (an ontology POSTed to /ontology): the union.
    const rows = sameas
      ? await deps.store.select('algorithm-list-by-sameas', { sameas: namedNode(checkIri(sameas, 'sameas')), ...bounds }, { union: true })
      : type
        ? await deps.store.select('algorithm-list-by-type', { type: namedNode(type), ...bounds }, { union: true })
        : await deps.store.select('algorithm-list', bounds, { union: true });
    return rows.map((r) => bound(r, 'a'));
  });
  if (page.items.length === 0 && sameas && paging.page === 0) throw new NotFound(`no algorithm with owl:sameAs ${sameas}`);
  return page;
}

/** The algorithm `id` (or its parameterised child `hash`), or 404. */
export async function resolveAlgorithm(deps: Deps, id: string, hash?: string): Promise<{ def: AlgorithmDef; uri: string }> {
  const def = algorithmById(id);
  if (!def) throw new NotFound(`no algorithm ${id}`);
  const uri = hash ? `${algorithmUri(deps, id)}/${hash}` : algorithmUri(deps, id);
  if (hash && (!HASH.test(hash) || !(await deps.store.hasGraph(uri)))) throw new NotFound(`no parameterised algorithm ${uri}`);
  return { def, uri };
}

/**
 * How an algorithm is described: generic ones from the catalogue, parameterised ones with
 * the values and date their graph holds. Built from the definition rather than read back,
 * so parameter values keep their declared datatypes (the store reads xsd:int as integer).
 */
export async function describeOptions(deps: Deps, def: AlgorithmDef, uri: string): Promise<DescribeOptions> {
  if (uri === algorithmUri(deps, def.id)) return {};
  const date = (await deps.store.match(namedNode(uri), DC.date, null, uri))[0]?.object.value;
  return { values: await storedValues(deps, def, uri), parent: algorithmUri(deps, def.id), date };
}

/** The RDF of algorithm `uri` (generic or parameterised). */
export async function algorithmGraph(deps: Deps, uri: string): Promise<Quad[]> {
  const [id] = uri.slice(algorithmUri(deps, '').length).split('/');
  const def = algorithmById(id!); // split gives at least one part
  return def ? algorithmQuads(def, uri, await describeOptions(deps, def, uri)) : deps.store.graph(uri);
}

/** The RDF of each of `uris`, in order: the RDF of an algorithm list. */
export async function algorithmGraphs(deps: Deps, uris: readonly string[]): Promise<Quad[]> {
  const out: Quad[] = [];
  for (const uri of uris) out.push(...(await algorithmGraph(deps, uri)));
  return out;
}
