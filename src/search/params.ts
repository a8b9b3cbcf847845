// The query parameters of a structure search, validated into typed values; a bad one is a 400 naming the parameter, its value and what is allowed.
import { BadRequest } from '../errors.ts';
import type { QueryKind } from '../chem/smarts.ts';
import { ERR } from '../rdf/vocab.ts';

export type SearchQuery =
  | { mode: 'exact'; text: string }
  | { mode: 'similarity'; smiles: string; threshold: number }
  | { mode: 'substructure'; kind: QueryKind; text: string };

type Query = Record<string, string | string[] | undefined>;

/** Parameters that make a request a search; any one of them routes it here. */
export const SEARCH_PARAMS = ['search', 'similarity', 'smarts', 'substructure'] as const;
export const DEFAULT_THRESHOLD = 0.8;

export function isSearch(query: Query): boolean {
  return SEARCH_PARAMS.some((p) => query[p] !== undefined);
}

function single(query: Query, name: string): string | undefined {
  const v = query[name];
  if (Array.isArray(v)) throw new BadRequest(`parameter ${name} is given ${v.length} times; give it once`, { code: ERR.InvalidParameter });
  return v;
}

function nonEmpty(name: string, value: string): string {
  if (!value.trim()) throw new BadRequest(`parameter ${name} is empty`, { code: ERR.MissingParameter });
  return value.trim();
}

export function searchQueryOf(query: Query): SearchQuery {
  const given = SEARCH_PARAMS.filter((p) => query[p] !== undefined);
  const [name] = given;
  if (name === undefined || given.length !== 1) {
    throw new BadRequest(`give one of ${SEARCH_PARAMS.join(', ')}, not ${given.join(' and ')}`, { code: ERR.InvalidParameter });
  }
  const value = nonEmpty(name, single(query, name)!);
  if (name === 'search') return { mode: 'exact', text: value };
  if (name === 'smarts' || name === 'substructure') return { mode: 'substructure', kind: name === 'smarts' ? 'smarts' : 'smiles', text: value };
  const raw = single(query, 'threshold');
  const threshold = raw === undefined || raw === '' ? DEFAULT_THRESHOLD : Number(raw);
  if (!Number.isFinite(threshold) || threshold <= 0 || threshold > 1) {
    throw new BadRequest(`threshold must be a number in (0, 1], got "${raw}"`, { code: ERR.InvalidParameter });
  }
  return { mode: 'similarity', smiles: value, threshold };
}
