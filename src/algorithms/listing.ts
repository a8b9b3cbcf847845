// The algorithm catalogue as the store holds it (SPEC §4.1): lists filtered by owl:sameAs
// or by type with its subclasses, parameterised children, and the RDF that describes each.
// The catalogue's descriptions are graphs (loadAlgorithms), so ?type= runs in the store.
import { DataFactory } from 'n3';
import type { Quad } from '@rdfjs/types';
import type { Deps } from '../deps.ts';
import { NotFound } from '../errors.ts';
import { fetchPage, type Paging } from '../http/paging.ts';
import { DC } from '../rdf/vocab.ts';
import { checkIri } from '../store/binder.ts';
import { algorithmById, algorithmUri, HASH, storedValues } from './catalogue.ts';
import { algorithmQuads, type DescribeOptions } from './describe.ts';
import type { AlgorithmDef } from './types.ts';
import { bound } from '../store/api.ts';

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
